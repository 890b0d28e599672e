import { Entity } from 'electrodb';
import { env } from '../config.js';
import { entityConfig, SERVICE } from '../db/client.js';
import { lazy } from '../db/lazy.js';
import { lazyClient } from '../lazy-client.js';
import { enqueueStored, type QueueInput, type QueueSpec } from './queue.js';

/**
 * One-time schedules that put a message on a queue at a given time. In AWS they are EventBridge
 * Scheduler schedules; where there is no EventBridge (the local stack, tests) they are table rows that
 * a timer fires with `fireDueSchedules`.
 */
export const ScheduledJob = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'scheduledJob', version: '1', service: SERVICE },
        attributes: {
          jobId: { type: 'string', required: true, readOnly: true },
          queue: { type: 'string', required: true },
          message: { type: 'string', required: true },
          at: { type: 'string', required: true },
          /** Constant partition of the due index: this store only backs local runs. */
          bucket: { type: 'string', required: true, default: 'due' },
        },
        indexes: {
          byId: { pk: { field: 'pk', composite: ['jobId'] }, sk: { field: 'sk', composite: [] } },
          due: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['bucket'] },
            sk: { field: 'gsi1sk', composite: ['at', 'jobId'] },
          },
        },
      },
      entityConfig(),
    ),
);

// The Scheduler client loads on the first schedule, only in AWS (the table mode never needs it).
const schedulerClient = lazyClient(
  () => import('@aws-sdk/client-scheduler'),
  (sdk) => new sdk.SchedulerClient({}),
);

const scheduleName = (jobId: string) => `hd-${jobId}`.slice(0, 64);

export async function scheduleOnce<Q extends QueueSpec>(input: {
  jobId: string;
  at: Date;
  queue: Q;
  message: QueueInput<Q>;
}) {
  const message = JSON.stringify(input.message);
  const queue = input.queue.name;
  if (env.schedulerMode === 'table') {
    await ScheduledJob.create({ jobId: input.jobId, queue, message, at: input.at.toISOString() }).go();
    return;
  }
  const queueArn = process.env[`QUEUE_ARN_${queue.toUpperCase()}`];
  const { sdk, client: scheduler } = await schedulerClient();
  await scheduler.send(
    new sdk.CreateScheduleCommand({
      Name: scheduleName(input.jobId),
      GroupName: env.schedulerGroup,
      ScheduleExpression: `at(${input.at.toISOString().slice(0, 19)})`,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: queueArn, RoleArn: env.schedulerRoleArn, Input: message },
    }),
  );
}

/** Cancels a schedule; true when it existed and had not fired. */
export async function cancelSchedule(jobId: string): Promise<boolean> {
  if (env.schedulerMode === 'table') {
    try {
      await ScheduledJob.delete({ jobId })
        .where((a, op) => op.exists(a.jobId))
        .go();
      return true;
    } catch {
      return false;
    }
  }
  const { sdk, client: scheduler } = await schedulerClient();
  try {
    await scheduler.send(new sdk.DeleteScheduleCommand({ Name: scheduleName(jobId), GroupName: env.schedulerGroup }));
    return true;
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') return false;
    throw err;
  }
}

/** Table mode: enqueue every job due at `now`, each exactly once (the delete is the claim). */
export async function fireDueSchedules(now = new Date()) {
  const { data } = await ScheduledJob.query
    .due({ bucket: 'due' })
    .lte({ at: now.toISOString(), jobId: '\uffff' })
    .go({ pages: 'all' });
  let fired = 0;
  for (const job of data) {
    try {
      await ScheduledJob.delete({ jobId: job.jobId })
        .where((a, op) => op.exists(a.jobId))
        .go();
    } catch {
      continue; // another timer claimed it
    }
    await enqueueStored(job.queue, JSON.parse(job.message));
    fired++;
  }
  return fired;
}

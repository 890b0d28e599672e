import { createHash } from 'node:crypto';
import { Entity } from 'electrodb';
import { awsClientConfig, env } from '../config.js';
import { entityConfig, SERVICE, ttlIn } from '../db/client.js';
import { commit, put, remove } from '../db/commit.js';
import { lazy } from '../db/lazy.js';
import { lazyClient } from '../lazy-client.js';
import { OUTBOX_PREFIX, type OutboxRecord } from './outbox.js';

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
  (sdk) => new sdk.SchedulerClient(awsClientConfig('scheduler')),
);

/**
 * A schedule's name (64 characters at most): the job id where it fits, else a digest of it. Cutting a
 * long id would give jobs that share a prefix (a ticket's timers for successive due times) one name,
 * and the second schedule would be taken for a repeat of the first.
 */
export const scheduleName = (jobId: string) =>
  `hd-${jobId}`.length <= 64 ? `hd-${jobId}` : `hd-${createHash('sha256').update(jobId).digest('hex').slice(0, 61)}`;

/**
 * Creates the one-time schedule an outbox item asks for (the relay calls this): at `at`, its message
 * goes on its queue. Idempotent on the item's id (the schedule's name): the relay may repeat it.
 */
export async function scheduleStored(record: { sk: string; at: string; queue: string; body: string }) {
  if (env.schedulerMode === 'table') {
    await ScheduledJob.put({ jobId: record.sk, queue: record.queue, message: record.body, at: record.at }).go();
    return;
  }
  const queueArn = process.env[`QUEUE_ARN_${record.queue.toUpperCase()}`];
  const { sdk, client: scheduler } = await schedulerClient();
  try {
    await scheduler.send(
      new sdk.CreateScheduleCommand({
        Name: scheduleName(record.sk),
        GroupName: env.schedulerGroup,
        ScheduleExpression: `at(${record.at.slice(0, 19)})`,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: { Arn: queueArn, RoleArn: env.schedulerRoleArn, Input: record.body },
      }),
    );
  } catch (err) {
    // Made already by an earlier relay of the same item.
    if ((err as Error).name !== 'ConflictException') throw err;
  }
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

/**
 * Table mode: every job due at `now` (of those `only` keeps: one tenant's, in a test that moves the
 * clock forward) becomes an outbox item, in one transaction with deleting its
 * row (the delete is the claim: two timers never both fire one job), so a fired job is never lost
 * between the table and its queue.
 */
export async function fireDueSchedules(now = new Date(), only: (jobId: string) => boolean = () => true) {
  const { data } = await ScheduledJob.query
    .due({ bucket: 'due' })
    .lte({ at: now.toISOString(), jobId: '\uffff' })
    .go({ pages: 'all' });
  let fired = 0;
  for (const job of data.filter((j) => only(j.jobId))) {
    const record: OutboxRecord = {
      pk: `${OUTBOX_PREFIX}schedules`,
      sk: `fired-${job.jobId}`,
      queue: job.queue,
      body: job.message,
      createdAt: now.toISOString(),
      expiresAt: ttlIn(14 * 86_400, now.getTime()),
    };
    const claimed = await commit({
      items: () => ({
        claim: remove(ScheduledJob.delete({ jobId: job.jobId }).where((a, op) => op.exists(a.jobId))),
        outbox: put({ TableName: env.tableName, Item: record }),
      }),
      refused: () => 'stop', // another timer claimed it
      exhausted: () => new Error(`Firing schedule ${job.jobId} kept colliding`),
    });
    if (claimed) fired++;
  }
  return fired;
}

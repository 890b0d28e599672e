import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { cancelEmail } from '@helpdesk/core/areas/emails/cancel';
import { sendEmail } from '@helpdesk/core/areas/emails/send';
import { PLAN_ALLOWANCES } from '@helpdesk/core/identity/plans';
import { scanSmallTableOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { relayOutbox } from '@helpdesk/core/kernel/ports/relay';
import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createTenant } from '../support/fixtures.js';
import { uniqueAddress } from './helpers.js';

// EventBridge Scheduler has no local stand-in: its adapter path is checked against a mocked client.
const saved = { ...process.env };
Object.assign(process.env, {
  SCHEDULER_MODE: 'eventbridge',
  SCHEDULER_GROUP: 'helpdesk-test',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
  QUEUE_ARN_EMAILS: 'arn:aws:sqs:us-east-1:123456789012:emails',
});
afterAll(() => {
  process.env = saved;
});
const scheduler = mockClient(SchedulerClient);
beforeEach(() => scheduler.reset());

const tenant = async (): Promise<TenantContext> => {
  const t = await createTenant();
  const project = t.projects.main!;
  return {
    accountId: t.accountId,
    plan: 'pro',
    allowances: PLAN_ALLOWANCES.pro,
    projectId: project.id,
    projectSlug: project.slug,
    project,
    env: 'live',
  };
};

describe('scheduled sends on EventBridge Scheduler', () => {
  it('creates a one-time schedule that puts the delivery message on the email queue, and deletes it on cancel', async () => {
    const ctx = await tenant();
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    scheduler.on(DeleteScheduleCommand).resolves({});
    const at = new Date(Date.now() + 2 * 3_600_000);
    const sent = await sendEmail(ctx, {
      to: uniqueAddress(),
      subject: 'Later',
      body: 'x',
      scheduledAt: at.toISOString(),
    });
    expect(sent.status).toBe('scheduled');
    // The send committed an outbox item; the relay turns it into the schedule.
    expect(scheduler.commandCalls(CreateScheduleCommand)).toHaveLength(0);
    const mine = (await scanSmallTableOutbox({ queue: 'emails' })).filter((r) => r.body.includes(sent.id));
    expect(mine).toHaveLength(1);
    expect(await relayOutbox(mine, { deleteSent: true })).toEqual([]);
    expect((await scanSmallTableOutbox({ queue: 'emails' })).filter((r) => r.body.includes(sent.id))).toHaveLength(0);

    const [create] = scheduler.commandCalls(CreateScheduleCommand);
    const input = create!.args[0].input;
    expect(input).toMatchObject({
      Name: `hd-${sent.id}`,
      GroupName: 'helpdesk-test',
      ScheduleExpression: `at(${at.toISOString().slice(0, 19)})`,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: 'arn:aws:sqs:us-east-1:123456789012:emails', RoleArn: 'arn:aws:iam::123456789012:role/scheduler' },
    });
    expect(JSON.parse(input.Target!.Input!)).toMatchObject({
      emailId: sent.id,
      ctx: { projectId: ctx.projectId, env: 'live' },
    });

    const canceled = await cancelEmail(ctx, sent.id);
    expect(canceled.status).toBe('canceled');
    expect(scheduler.commandCalls(DeleteScheduleCommand)[0]!.args[0].input).toEqual({
      Name: `hd-${sent.id}`,
      GroupName: 'helpdesk-test',
    });
  });

  it('still cancels when the schedule has already fired (the consumer then finds a canceled row)', async () => {
    const ctx = await tenant();
    scheduler.on(CreateScheduleCommand).resolves({});
    scheduler
      .on(DeleteScheduleCommand)
      .rejects(Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' }));
    const sent = await sendEmail(ctx, {
      to: uniqueAddress(),
      subject: 'Later',
      body: 'x',
      scheduledAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await cancelEmail(ctx, sent.id)).status).toBe('canceled');
  });
});

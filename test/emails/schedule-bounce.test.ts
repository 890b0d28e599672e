import { emailsQueue } from '@helpdesk/core/areas/emails/queue';
import { enqueue } from '@helpdesk/core/kernel/ports/queue';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as sesEventsHandler } from '../../functions/queue/ses-events.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';
import { mailsTo, uniqueAddress } from './helpers.js';

const app = await startTestApp();

const custom = (to: string, extra: Record<string, unknown> = {}) => ({
  to,
  subject: 'Reminder',
  body: 'Your appointment',
  ...extra,
});
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('scheduled sends', () => {
  it('waits as scheduled and is sent when its schedule fires', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const scheduledAt = inHours(2);
    const res = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(to, { scheduledAt }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'scheduled', scheduledAt: new Date(scheduledAt).toISOString() });
    await app.fireSchedules();
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(0);

    await app.fireSchedules(new Date(Date.now() + 3 * 3_600_000));
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(1);
    const row = await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(row.body).toMatchObject({
      status: 'sent',
      scheduledAt: new Date(scheduledAt).toISOString(),
      sentAt: expect.any(String),
    });

    const late = await app.call('DELETE', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('email.not_cancelable');
  });

  it('can be canceled while scheduled: nothing is sent and its quota unit comes back', async () => {
    const t = await createTenant({ limits: { emails: 1 } });
    const to = uniqueAddress();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(to, { scheduledAt: inHours(1) }),
    });
    const canceled = await app.call('DELETE', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: res.body.id, status: 'canceled' });
    const twice = await app.call('DELETE', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(twice.status).toBe(422);

    await app.fireSchedules(new Date(Date.now() + 2 * 3_600_000));
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(0);
    expect((await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey })).body.status).toBe('canceled');
    expect((await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(uniqueAddress()) })).status).toBe(
      200,
    );
    await app.drain();
  });

  it('refuses a time in the past or more than 30 days ahead, and cancels only scheduled sends', async () => {
    const t = await createTenant();
    const past = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(uniqueAddress(), { scheduledAt: inHours(-1) }),
    });
    expect(past.status).toBe(422);
    expect(past.body.error.details.fields[0].field).toBe('scheduledAt');
    const far = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(uniqueAddress(), { scheduledAt: inHours(31 * 24) }),
    });
    expect(far.status).toBe(422);
    const notIso = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(uniqueAddress(), { scheduledAt: 'tomorrow' }),
    });
    expect(notIso.status).toBe(422);

    const now = await app.call('POST', '/emails/send', { key: t.sandboxKey, body: custom(uniqueAddress()) });
    await app.drain();
    const res = await app.call('DELETE', `/emails/${now.body.id}`, { key: t.sandboxKey });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('captured');
  });
});

async function hookedTenant(): Promise<{ t: TenantFixture; receiver: Awaited<ReturnType<typeof startReceiver>> }> {
  const t = await createTenant();
  const receiver = await startReceiver();
  const hook = await app.call('POST', '/webhooks', {
    key: t.liveKey,
    body: { url: receiver.url, events: ['email.bounced', 'email.complained'] },
  });
  expect(hook.status).toBe(200);
  return { t, receiver };
}

describe('bounces and complaints', () => {
  it('a bounce marks the row, suppresses the recipient and fires email.bounced', async () => {
    const { t, receiver } = await hookedTenant();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom('bounce@simulator.amazonses.com'),
    });
    await app.drain();
    const row = await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(row.body.status).toBe('bounced');

    await receiver.waitFor(1);
    const delivery = receiver.requests[0]!.json;
    expect(delivery.event).toBe('email.bounced');
    expect(delivery.data).toEqual({
      email: { id: res.body.id, to: 'bounce@simulator.amazonses.com', subject: 'Reminder', templateKey: null },
      type: 'bounced',
      recipient: 'bounce@simulator.amazonses.com',
      suppressed: true,
    });

    const again = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom('Bounce@Simulator.AmazonSES.com'),
    });
    expect(again.body).toMatchObject({ status: 'blocked', blocked: true, blockReason: 'bounced' });
    // Suppression belongs to the project: another tenant still sends to the address.
    const other = await createTenant();
    const fresh = await app.call('POST', '/emails/send', {
      key: other.liveKey,
      body: custom('bounce@simulator.amazonses.com'),
    });
    expect(fresh.body.blocked).toBe(false);
    await app.drain();
    expect(receiver.requests).toHaveLength(1);
  });

  it('a complaint marks the row complained, suppresses with reason complained and fires email.complained', async () => {
    const { t, receiver } = await hookedTenant();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom('complaint@simulator.amazonses.com'),
    });
    await app.drain();
    expect((await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey })).body.status).toBe('complained');
    await receiver.waitFor(1);
    expect(receiver.requests[0]!.json.event).toBe('email.complained');
    expect(receiver.requests[0]!.json.data).toEqual({
      email: { id: res.body.id, to: 'complaint@simulator.amazonses.com', subject: 'Reminder', templateKey: null },
      recipient: 'complaint@simulator.amazonses.com',
      suppressed: true,
    });
    const again = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom('complaint@simulator.amazonses.com'),
    });
    expect(again.body.blockReason).toBe('complained');
  });

  it('reads SNS-wrapped SES events, handles each once, and ignores transient bounces', async () => {
    const { t, receiver } = await hookedTenant();
    const to = uniqueAddress();
    const res = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(to) });
    await app.drain();
    const mail = {
      messageId: 'm-1',
      tags: { accountId: [t.accountId], projectId: [t.projects.main!.id], env: ['live'], emailId: [res.body.id] },
    };
    const sqsEvent = (bodies: unknown[]): SQSEvent =>
      ({
        Records: bodies.map((b, i) => ({
          messageId: `r${i}`,
          body: JSON.stringify({ Type: 'Notification', MessageId: `sns-${i}`, Message: JSON.stringify(b) }),
        })),
      }) as SQSEvent;

    const transient = {
      eventType: 'Bounce',
      mail,
      bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: to }] },
    };
    expect(await sesEventsHandler(sqsEvent([transient]))).toEqual({ batchItemFailures: [] });
    expect((await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey })).body.status).toBe('sent');

    const delivery = { eventType: 'Delivery', mail };
    await sesEventsHandler(sqsEvent([delivery]));
    expect((await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey })).body.status).toBe('delivered');

    const bounce = {
      eventType: 'Bounce',
      mail,
      bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: to }] },
    };
    expect(await sesEventsHandler(sqsEvent([bounce, bounce]))).toEqual({ batchItemFailures: [] });
    await sesEventsHandler(sqsEvent([delivery]));
    expect((await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey })).body.status).toBe('bounced');
    const blocked = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(to) });
    expect(blocked.body.blockReason).toBe('bounced');
    await app.drain();
    await receiver.waitFor(1);
    expect(receiver.requests.map((r) => r.json.data.recipient)).toEqual([to]);
  });
});

describe('email consumer', () => {
  it('does nothing when a delivered message is redelivered', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const res = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(to) });
    await app.drain();
    const { PLAN_ALLOWANCES } = await import('@helpdesk/core/identity/plans');
    const project = { id: t.projects.main!.id, slug: 'main', name: 'main' };
    const ctx = {
      accountId: t.accountId,
      plan: 'pro' as const,
      allowances: PLAN_ALLOWANCES.pro,
      projectId: project.id,
      projectSlug: 'main',
      project,
      env: 'live' as const,
    };
    await enqueue(emailsQueue, { emailId: res.body.id, ctx });
    await enqueue(emailsQueue, { emailId: res.body.id, ctx });
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(1);
  });
});

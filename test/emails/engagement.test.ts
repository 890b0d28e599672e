import { sesEventsQueue } from '@helpdesk/core/areas/emails/queue';
import { sesNotification } from '@helpdesk/core/areas/emails/ses-notification';
import { outboxRecord, putOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { describe, expect, it } from 'vitest';
import { adminCli } from '../support/admin-cli.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';
import { uniqueAddress } from './helpers.js';

/**
 * Issue 29.6: what SES reports after a send (delivery, delay, complaint, reject, open, click), each on
 * the email's log row and as its catalog event; the local stack gets them from `admin ses:event`.
 */
const app = await startTestApp();
const admin = await adminCli(app);

async function sent(t: TenantFixture) {
  const receiver = await startReceiver();
  await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: receiver.url, events: ['email.*'] } });
  const to = uniqueAddress();
  const res = await app.call('POST', '/emails/send', { key: t.liveKey, body: { to, subject: 'Tracked', body: 'Hi' } });
  expect(res.status).toBe(200);
  await app.drain();
  const row = await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey });
  return { receiver, to, id: res.body.id as string, row: row.body };
}

const publish = async (event: ReturnType<typeof sesNotification>) => {
  await putOutbox([outboxRecord(sesEventsQueue, event)]);
  await app.drain();
};

describe('email events from SES', () => {
  it('a delivery injected with admin ses:event marks the row delivered and fires email.delivered after email.sent', async () => {
    const t = await createTenant();
    const { receiver, id, to } = await sent(t);
    const injected = await admin('ses:event', '--project', t.projects.main!.id, '--email', id, '--type', 'delivery');
    expect(injected.json).toEqual({ queued: true, eventType: 'Delivery', emailId: id });
    await app.drain();
    const row = await app.call('GET', `/emails/${id}`, { key: t.liveKey });
    expect(row.body).toMatchObject({ status: 'delivered', deliveredAt: expect.any(String) });
    expect(receiver.requests.map((r) => r.json.event)).toEqual(['email.sent', 'email.delivered']);
    expect(receiver.requests[1]!.json.data).toEqual({
      email: { id, to, subject: 'Tracked', templateKey: null },
      recipients: [to],
    });
  });

  it('counts opens and clicks on the row, fires one event per occurrence, and none for the same SES event twice', async () => {
    const t = await createTenant();
    const { receiver, id, to, row } = await sent(t);
    const who = { accountId: t.accountId, projectId: t.projects.main!.id, env: 'live' as const, emailId: id, to };
    const firstOpen = sesNotification('open', who, { at: new Date('2026-11-26T10:00:00Z') });
    await publish(firstOpen);
    await publish(firstOpen);
    await publish(sesNotification('open', who, { at: new Date('2026-11-26T10:05:00Z') }));
    await publish(
      sesNotification('click', who, { link: 'https://example.com/order/7', at: new Date('2026-11-26T10:06:00Z') }),
    );
    await publish(sesNotification('delay', who));
    const after = await app.call('GET', `/emails/${id}`, { key: t.liveKey });
    expect(row.status).toBe('sent');
    expect(after.body).toMatchObject({
      openedAt: '2026-11-26T10:00:00.000Z',
      clickedAt: '2026-11-26T10:06:00.000Z',
      clicks: 1,
      lastClickedLink: 'https://example.com/order/7',
    });
    // The same open delivered twice is one event; its count on the row is at-least-once (SES retries rarely).
    expect(after.body.opens).toBeGreaterThanOrEqual(2);
    expect(receiver.requests.map((r) => r.json.event)).toEqual([
      'email.sent',
      'email.opened',
      'email.opened',
      'email.clicked',
      'email.delivery_delayed',
    ]);
    expect(receiver.requests[3]!.json.data).toMatchObject({ link: 'https://example.com/order/7' });
    // Six drains: a full run's load on the one DynamoDB Local has stretched this past a minute.
  }, 180_000);

  it('a complaint suppresses and fires email.complained; a reject marks the row failed with email.failed', async () => {
    const t = await createTenant();
    const first = await sent(t);
    const who = (s: { id: string; to: string }) => ({
      accountId: t.accountId,
      projectId: t.projects.main!.id,
      env: 'live' as const,
      emailId: s.id,
      to: s.to,
    });
    await publish(sesNotification('complaint', who(first)));
    expect((await app.call('GET', `/emails/${first.id}`, { key: t.liveKey })).body.status).toBe('complained');
    expect(first.receiver.requests.map((r) => r.json.event)).toEqual(['email.sent', 'email.complained']);
    const again = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to: first.to, subject: 'Again', body: 'Hi' },
    });
    expect(again.body).toMatchObject({ blocked: true, blockReason: 'complained' });
    await app.drain();
    expect(first.receiver.requests.at(-1)!.json).toMatchObject({
      event: 'email.suppressed',
      data: { recipient: first.to, reason: 'complained' },
    });

    const second = await sent(t);
    await publish(sesNotification('reject', who(second)));
    const rejected = await app.call('GET', `/emails/${second.id}`, { key: t.liveKey });
    expect(rejected.body).toMatchObject({ status: 'failed', error: expect.stringContaining('rejected') });
    expect(second.receiver.requests.map((r) => r.json.event)).toContain('email.failed');
  }, 180_000);
});

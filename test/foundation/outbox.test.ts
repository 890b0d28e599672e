import { scanSmallTableOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';

/**
 * Issue 28: a committed write's side effects survive the process that made them. The first stack
 * runs no relay and no consumers (a process that died right after its commits); the second, started
 * on the same table, relays what the first left and delivers it.
 */
describe('the outbox across a restart', () => {
  it('delivers the events and mail of writes committed by a stack that stopped before relaying them', async () => {
    const first = await startTestApp({ consumers: false });
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await first.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: receiver.url, events: ['ticket.created', 'message.received'] },
    });
    expect(hook.status).toBe(200);
    const ticket = await first.call('POST', '/tickets', {
      key: t.liveKey,
      body: { subject: 'Written before the crash', body: 'Hello', customer: { email: 'crash@example.com' } },
    });
    expect(ticket.status).toBe(200);
    const reply = await first.call('POST', `/tickets/${ticket.body.id}/messages`, {
      key: t.liveKey,
      body: { body: 'We are on it' },
    });
    expect(reply.status).toBe(200);
    const ofTenant = async () =>
      (await scanSmallTableOutbox({ pending: true })).filter((r) => r.body.includes(t.projects.main!.id));
    const waiting = await ofTenant();
    expect(waiting.map((r) => r.queue).sort()).toEqual(expect.arrayContaining(['emails', 'webhooks']));
    await first.stop();

    const second = await startTestApp();
    await second.drain();
    await receiver.waitFor(2);
    const events = receiver.requests.map((r) => r.json.event).sort();
    expect(events).toEqual(['message.received', 'ticket.created']);
    expect(receiver.requests.every((r) => JSON.stringify(r.json.data).includes(ticket.body.id))).toBe(true);
    // The reply mail went out.
    const sent = await second.call('GET', '/emails', { key: t.liveKey });
    expect(sent.body.emails.map((e: { to: string; status: string }) => [e.to, e.status])).toEqual([
      ['crash@example.com', expect.stringMatching(/^(sent|delivered)$/)],
    ]);
    // Consumed items are marked; nothing of this tenant is left pending.
    expect(await ofTenant()).toEqual([]);
  });
});

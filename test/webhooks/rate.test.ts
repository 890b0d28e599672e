import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitEvent } from './emit.js';
import { type Received, startReceiver } from './receiver.js';

/** A receiver's pace: its Retry-After honoured, the endpoint's own rate limit kept without failing anything. */
const app = await startTestApp();

const source = (t: TenantFixture) => ({ accountId: t.accountId, projectId: t.projects.main!.id, env: 'live' as const });
const data = (n: number) => ({
  ticket: { id: '6a1f4c2e-1111-4aaa-8bbb-000000000001', number: n, subject: `#${n}`, status: 'new', priority: 'low' },
  customer: { email: `ann${n}@example.com`, name: 'Ann' },
  source: 'api' as const,
});

/** Drains until the receiver holds `n` requests (delayed queue messages come back on their own time). */
async function received(receiver: { requests: Received[] }, n: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (receiver.requests.length < n && Date.now() < deadline) {
    await app.drain();
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(receiver.requests.length).toBe(n);
}

describe('a receiver that asks for time, and an endpoint rate limit', () => {
  it("waits as long as a 429's Retry-After says, then delivers with the same webhook-id", async () => {
    const t = await createTenant();
    const receiver = await startReceiver((n) =>
      n === 0 ? { status: 429, headers: { 'Retry-After': '2' } } : { status: 200 },
    );
    const hook = (await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: receiver.url } })).body;
    await emitEvent(source(t), 'ticket.created', data(1));
    await received(receiver, 2);
    const [first, second] = receiver.requests;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    const log = (await app.call('GET', `/webhooks/${hook.id}/deliveries`, { key: t.liveKey })).body.deliveries;
    const failed = log.find((d: { statusCode: number }) => d.statusCode === 429);
    // The backoff's first step is a minute; the receiver asked for 2 s.
    const wait = Date.parse(failed.nextRetryAt) - Date.parse(failed.createdAt);
    expect(wait).toBeGreaterThanOrEqual(1_500);
    expect(wait).toBeLessThan(4_000);
  }, 40_000);

  it('spreads deliveries over an endpoint limit of one a second, failing none', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const created = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: receiver.url, rateLimitPerSecond: 1 },
    });
    expect(created.body.rateLimitPerSecond).toBe(1);
    const started = Date.now();
    await Promise.all([1, 2, 3].map((n) => emitEvent(source(t), 'ticket.created', data(n))));
    await received(receiver, 3);
    const times = receiver.requests.map((r) => r.at);
    // One a second counts per calendar second (fixed windows): three deliveries take three seconds, so the
    // last lands about a second or more after the first (the first may come at the end of its second; a
    // little slack for the time between counting a delivery and its arrival).
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(900);
    const log = (await app.call('GET', `/webhooks/${created.body.id}/deliveries`, { key: t.liveKey })).body.deliveries;
    expect(log.map((d: { statusCode: number; attempt: number }) => [d.statusCode, d.attempt])).toEqual([
      [200, 1],
      [200, 1],
      [200, 1],
    ]);

    const cleared = await app.call('PATCH', `/webhooks/${created.body.id}`, {
      key: t.liveKey,
      body: { rateLimitPerSecond: null },
    });
    expect(cleared.body.rateLimitPerSecond).toBeNull();
    for (const bad of [0, 1.5, 1001, '2'])
      expect(
        (await app.call('PATCH', `/webhooks/${created.body.id}`, { key: t.liveKey, body: { rateLimitPerSecond: bad } }))
          .status,
      ).toBe(422);
  }, 60_000);
});

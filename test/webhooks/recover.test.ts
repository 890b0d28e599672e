import { WebhookDeadLetter } from '@helpdesk/core/areas/webhooks/entities';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';
import { startReceiver } from './receiver.js';

/** Issue 29.3: deliveries that failed for good, queued again over a window or one by one, with their ids. */
const app = await startTestApp();
const saved = { ...process.env };
afterEach(() => setEnv({ WEBHOOK_RETRY_BASE_SECONDS: saved.WEBHOOK_RETRY_BASE_SECONDS }));

/** An endpoint whose receiver fails until `healthy` is set, and three dead-lettered deliveries. */
async function deadLettered() {
  // Retries a few milliseconds apart: every attempt fails, and the last dead-letters the delivery.
  setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '0.001' });
  const t = await createTenant();
  const state = { healthy: false };
  const receiver = await startReceiver(() => ({ status: state.healthy ? 200 : 500 }));
  const hook = await app.call('POST', '/webhooks', {
    key: t.liveKey,
    body: { url: receiver.url, events: ['ticket.created'] },
  });
  const before = new Date().toISOString();
  for (const subject of ['One', 'Two', 'Three']) {
    await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: { subject, body: 'x', customer: { email: 'r@example.com' } },
    });
  }
  // Retries come back after SQS delays of a second or two: wait until all three are dead letters.
  const key = { projectId: t.projects.main!.id, env: 'live' as const, webhookId: hook.body.id };
  for (let i = 0; i < 100; i++) {
    await app.fireSchedules(new Date(Date.now() + 100 * 86_400_000));
    await app.drain();
    if ((await WebhookDeadLetter.query.byEndpoint(key).go()).data.length === 3) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect((await WebhookDeadLetter.query.byEndpoint(key).go()).data).toHaveLength(3);
  const failedIds = [...new Set(receiver.requests.map((r) => String(r.headers['webhook-id'])))];
  expect(failedIds).toHaveLength(3);
  return { t, receiver, hookId: hook.body.id as string, state, before, failedIds };
}

describe('recovering failed deliveries', () => {
  it('re-sends exactly the dead-lettered deliveries of a window, with their original webhook-id and payload, once', async () => {
    const { t, receiver, hookId, state, before, failedIds } = await deadLettered();
    const failedBodies = new Map(receiver.requests.map((r) => [String(r.headers['webhook-id']), r.body]));
    state.healthy = true;
    const seen = receiver.requests.length;

    // Outside the window: nothing.
    const none = await app.call('POST', `/webhooks/${hookId}/recover`, {
      key: t.liveKey,
      body: { since: '2020-01-01T00:00:00Z', until: '2020-01-02T00:00:00Z' },
    });
    expect(none.body).toMatchObject({ queued: 0 });

    const recovered = await app.call('POST', `/webhooks/${hookId}/recover`, {
      key: t.liveKey,
      body: { since: before },
    });
    expect(recovered.status).toBe(200);
    expect(recovered.body).toMatchObject({ queued: 3, since: before, until: null });
    await app.drain();
    const resent = receiver.requests.slice(seen);
    expect(resent.map((r) => String(r.headers['webhook-id'])).sort()).toEqual([...failedIds].sort());
    for (const r of resent) expect(r.body).toBe(failedBodies.get(String(r.headers['webhook-id'])));

    // Recovered already: a second recovery of the same window queues nothing.
    const again = await app.call('POST', `/webhooks/${hookId}/recover`, { key: t.liveKey, body: { since: before } });
    expect(again.body.queued).toBe(0);
  });

  it('retries one delivery, and refuses while the endpoint is disabled (409) or for an unknown delivery (404)', async () => {
    const { t, receiver, hookId, state, failedIds } = await deadLettered();
    const [one] = failedIds;
    await app.call('PATCH', `/webhooks/${hookId}`, { key: t.liveKey, body: { enabled: false } });
    const disabled = await app.call('POST', `/webhooks/${hookId}/deliveries/${one}/retry`, { key: t.liveKey });
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.code).toBe('webhook.disabled');
    const recoverDisabled = await app.call('POST', `/webhooks/${hookId}/recover`, {
      key: t.liveKey,
      body: { since: '2020-01-01T00:00:00Z' },
    });
    expect(recoverDisabled.status).toBe(409);
    // A reversed window is refused, not answered with nothing found.
    const reversed = await app.call('POST', `/webhooks/${hookId}/recover`, {
      key: t.liveKey,
      body: { since: '2026-11-28T00:00:00Z', until: '2026-11-27T00:00:00Z' },
    });
    expect(reversed.status).toBe(422);
    expect(reversed.body.error.details.fields).toEqual([
      { field: 'since', in: 'body', message: 'Must not be after until' },
    ]);

    await app.call('PATCH', `/webhooks/${hookId}`, { key: t.liveKey, body: { enabled: true } });
    state.healthy = true;
    const seen = receiver.requests.length;
    const retried = await app.call('POST', `/webhooks/${hookId}/deliveries/${one}/retry`, { key: t.liveKey });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ queued: true, deliveryId: one });
    await app.drain();
    expect(receiver.requests.slice(seen).map((r) => String(r.headers['webhook-id']))).toEqual([one]);
    const unknown = await app.call('POST', `/webhooks/${hookId}/deliveries/${crypto.randomUUID()}/retry`, {
      key: t.liveKey,
    });
    expect(unknown.status).toBe(404);
    // Another tenant's endpoint is not found either.
    const other = await createTenant();
    const foreign = await app.call('POST', `/webhooks/${hookId}/recover`, {
      key: other.liveKey,
      body: { since: '2020-01-01T00:00:00Z' },
    });
    expect(foreign.status).toBe(404);
  });
});

import { WebhookDeadLetter, WebhookEndpoint } from '@helpdesk/core/areas/webhooks/entities';
import { verifySignature } from '@helpdesk/core/areas/webhooks/verify';
import { afterEach, describe, expect, it } from 'vitest';
import { mailsTo } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitEvent } from './emit.js';
import { startReceiver } from './receiver.js';

const app = await startTestApp();

const saved = { ...process.env };
afterEach(() => {
  setEnv({
    WEBHOOK_RETRY_BASE_SECONDS: saved.WEBHOOK_RETRY_BASE_SECONDS,
    ALLOW_PRIVATE_WEBHOOK_TARGETS: saved.ALLOW_PRIVATE_WEBHOOK_TARGETS,
  });
});

const ticketData = (n = 7) => ({
  ticket: {
    id: '6a1f4c2e-1111-4aaa-8bbb-000000000001',
    number: n,
    subject: `Cannot log in #${n}`,
    status: 'new',
    priority: 'high',
  },
  customer: { email: `ann${n}@example.com`, name: 'Ann Example' },
  source: 'api' as const,
});

const register = async (t: TenantFixture, body: Record<string, unknown>, key = t.liveKey) => {
  const res = await app.call('POST', '/webhooks', { key, body });
  expect(res.status).toBe(200);
  return res.body as { id: string; secret: string };
};
const source = (t: TenantFixture, env: 'live' | 'sandbox' = 'live') => ({
  accountId: t.accountId,
  projectId: t.projects.main!.id,
  env,
});
const deliveries = async (t: TenantFixture, id: string) => {
  const res = await app.call('GET', `/webhooks/${id}/deliveries`, { key: t.liveKey });
  expect(res.status).toBe(200);
  return res.body.deliveries as any[];
};
/** Fires every due (and, with a far date, every future) retry schedule and waits for its deliveries. */
const fireRetries = async () => {
  const fired = await app.fireSchedules(new Date(Date.now() + 100 * 24 * 3600 * 1000));
  await app.drain();
  return fired;
};

describe('delivery', () => {
  it('POSTs one signed ticket.created with the spec body and headers, and logs it', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, { url: receiver.url });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-service-event']).toBe('ticket.created');
    expect(req!.headers['x-service-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req!.headers['x-service-timestamp']).toBe(req!.json.timestamp);
    expect(req!.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(req!.body, String(req!.headers['x-service-signature']), hook.secret)).toBe(true);
    expect(req!.json).toEqual({
      event: 'ticket.created',
      type: 'ticket.created',
      timestamp: expect.any(String),
      data: ticketData(),
    });
    expect(Date.parse(req!.json.timestamp)).not.toBeNaN();

    expect(await deliveries(t, hook.id)).toEqual([
      {
        id: req!.headers['x-service-delivery'],
        event: 'ticket.created',
        attempt: 1,
        statusCode: 200,
        durationMs: expect.any(Number),
        error: null,
        createdAt: expect.any(String),
        nextRetryAt: null,
        // The fingerprint of the one secret that signed it (the endpoint names its own the same way).
        signedWith: [expect.stringMatching(/^[0-9a-f]{12}$/)],
      },
    ]);
  });

  it('sends each endpoint only the events it chose, and only its own project and environment', async () => {
    const t = await createTenant();
    const resolvedOnly = await startReceiver();
    const everything = await startReceiver();
    const sandbox = await startReceiver();
    const otherProject = await startReceiver();
    await register(t, { url: resolvedOnly.url, events: ['ticket.resolved'] });
    await register(t, { url: everything.url });
    await register(t, { url: sandbox.url }, t.sandboxKey);
    const other = await createTenant();
    await register(other, { url: otherProject.url });

    await emitEvent(source(t), 'ticket.created', ticketData(1));
    await emitEvent(source(t), 'ticket.resolved', {
      ...ticketData(2),
      ticket: { ...ticketData(2).ticket, status: 'resolved' },
    });
    await emitEvent(source(t, 'sandbox'), 'customer.created', {
      customer: {
        id: 'c',
        email: 's@example.com',
        name: null,
        externalId: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    });
    await app.drain();

    expect(resolvedOnly.requests.map((r) => r.json.event)).toEqual(['ticket.resolved']);
    expect(everything.requests.map((r) => r.json.event).sort()).toEqual(['ticket.created', 'ticket.resolved']);
    expect(sandbox.requests.map((r) => r.json.event)).toEqual(['customer.created']);
    expect(otherProject.requests).toHaveLength(0);
  });

  it('sends the chat format as one markdown section block, signed', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, { url: receiver.url, format: 'chat' });
    await emitEvent(source(t), 'ticket.created', ticketData(42));
    await app.drain();

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req!.headers['x-service-event']).toBe('ticket.created');
    expect(verifySignature(req!.body, String(req!.headers['x-service-signature']), hook.secret)).toBe(true);
    expect(req!.json).toEqual({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: expect.any(String) } }] });
    const text: string = req!.json.blocks[0].text.text;
    for (const part of ['Cannot log in #42', '#42', 'ann42@example.com', 'high']) expect(text).toContain(part);
  });

  it('retries a 500 and logs both attempts, newest first, under one delivery id', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '0' });
    const t = await createTenant();
    const receiver = await startReceiver((n) => ({ status: n === 0 ? 500 : 200 }));
    const hook = await register(t, { url: receiver.url });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();
    await receiver.waitFor(2);
    await app.drain();

    expect(receiver.requests).toHaveLength(2);
    const [first, second] = receiver.requests;
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['x-service-delivery']).toBe(first!.headers['x-service-delivery']);
    const log = await deliveries(t, hook.id);
    expect(log).toMatchObject([
      { id: first!.headers['x-service-delivery'], attempt: 2, statusCode: 200, error: null, nextRetryAt: null },
      {
        id: first!.headers['x-service-delivery'],
        attempt: 1,
        statusCode: 500,
        error: 'HTTP 500',
        nextRetryAt: expect.any(String),
      },
    ]);
  });

  it('backs off through the scheduler, then dead-letters after the last of 8 attempts', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    const t = await createTenant();
    const receiver = await startReceiver(() => ({ status: 503 }));
    const hook = await register(t, { url: receiver.url });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();
    expect(receiver.requests).toHaveLength(1);

    const [firstRow] = await deliveries(t, hook.id);
    const wait = Date.parse(firstRow.nextRetryAt) - Date.parse(firstRow.createdAt);
    // 1 unit of backoff with ±10 % jitter (plus the attempt's own duration).
    expect(wait).toBeGreaterThanOrEqual(900_000);
    expect(wait).toBeLessThanOrEqual(1_100_000 + firstRow.durationMs);

    // Other tests' retries may fire too; this endpoint's count is what matters.
    for (let attempt = 2; attempt <= 8; attempt++) {
      expect(await fireRetries()).toBeGreaterThanOrEqual(1);
      expect(receiver.requests).toHaveLength(attempt);
    }
    await fireRetries();
    expect(receiver.requests).toHaveLength(8);

    const log = await deliveries(t, hook.id);
    expect(log.map((d) => d.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(log[0]).toMatchObject({ statusCode: 503, nextRetryAt: null });
    expect(log.slice(1).every((d) => d.nextRetryAt !== null)).toBe(true);
    const { data: dead } = await WebhookDeadLetter.query
      .byEndpoint({ projectId: t.projects.main!.id, env: 'live', webhookId: hook.id })
      .go();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({
      deliveryId: log[0].id,
      attempts: 8,
      event: 'ticket.created',
      lastError: 'HTTP 503',
    });
    expect(JSON.parse(dead[0]!.data)).toEqual(ticketData());
  });

  it('disables an endpoint at once on 410 Gone', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '0' });
    const t = await createTenant();
    const receiver = await startReceiver(() => ({ status: 410 }));
    const hook = await register(t, { url: receiver.url });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();
    await emitEvent(source(t), 'ticket.created', ticketData(8));
    await app.drain();

    expect(receiver.requests).toHaveLength(1);
    const list = await app.call('GET', '/webhooks', { key: t.liveKey });
    expect(list.body.webhooks[0]).toMatchObject({ id: hook.id, enabled: false });
    const [row] = await deliveries(t, hook.id);
    expect(row).toMatchObject({ statusCode: 410, nextRetryAt: null });
    expect(row.error).toContain('disabled');
  });

  it('warns after a day of failures, disables after five, and says when an endpoint recovers: events to the other endpoints, mail to the admins', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    const t = await createTenant();
    const admin = await t.member({ role: 'admin' });
    let failing = true;
    const broken = await startReceiver(() => ({ status: failing ? 500 : 200 }));
    const watcher = await startReceiver();
    const hook = await register(t, { url: broken.url, events: ['ticket.created'] });
    await register(t, { url: watcher.url, events: ['webhook.endpoint.*'] });
    const key = { projectId: t.projects.main!.id, env: 'live' as const, webhookId: hook.id };
    const backdate = (ms: number) =>
      WebhookEndpoint.patch(key)
        .set({ failingSince: new Date(Date.now() - ms).toISOString() })
        .go();

    await emitEvent(source(t), 'ticket.created', ticketData(1));
    await app.drain();
    expect((await WebhookEndpoint.get(key).go()).data).toMatchObject({
      enabled: true,
      failingSince: expect.any(String),
    });
    expect(watcher.requests).toHaveLength(0);

    // A day of failures (four here, still short of five): one warning, however many attempts fail after it.
    await backdate(4 * 86_400_000);
    await emitEvent(source(t), 'ticket.created', ticketData(2));
    await emitEvent(source(t), 'ticket.created', ticketData(3));
    await app.drain();
    expect(watcher.requests.map((r) => r.json.event)).toEqual(['webhook.endpoint.failing']);
    expect(watcher.requests[0]!.json.data.endpoint).toEqual({ id: hook.id, url: broken.url });
    expect((await mailsTo(admin.email)).map((m) => m.subject)).toEqual([`Webhook endpoint failing: ${broken.url}`]);

    expect((await WebhookEndpoint.get(key).go()).data!.enabled).toBe(true);
    // Past five days the next failure disables it.
    await backdate(5 * 86_400_000 + 60_000);
    await emitEvent(source(t), 'ticket.created', ticketData(5));
    await app.drain();
    expect((await WebhookEndpoint.get(key).go()).data!.enabled).toBe(false);
    const [latest] = await deliveries(t, hook.id);
    expect(latest).toMatchObject({ attempt: 1, statusCode: 500, nextRetryAt: null });
    expect(latest.error).toContain('5 days');
    expect(watcher.requests.map((r) => r.json.event)).toContain('webhook.endpoint.disabled');
    expect((await mailsTo(admin.email)).map((m) => m.subject)).toContain(`Webhook endpoint disabled: ${broken.url}`);

    // Re-enabling starts a fresh window; the first success after a failure streak is announced.
    await app.call('PATCH', `/webhooks/${hook.id}`, { key: t.liveKey, body: { enabled: true } });
    expect((await WebhookEndpoint.get(key).go()).data!.failingSince).toBeUndefined();
    await emitEvent(source(t), 'ticket.created', ticketData(6));
    await app.drain();
    failing = false;
    await emitEvent(source(t), 'ticket.created', ticketData(7));
    await app.drain();
    expect(watcher.requests.map((r) => r.json.event)).toEqual([
      'webhook.endpoint.failing',
      'webhook.endpoint.disabled',
      'webhook.endpoint.recovered',
    ]);
    // Health events never go to the endpoint they are about.
    expect(broken.requests.every((r) => r.json.event === 'ticket.created')).toBe(true);
  });

  it('counts a 6 s receiver as a timeout while the other endpoints still get theirs', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    const t = await createTenant();
    const slow = await startReceiver(() => ({ status: 200, delayMs: 6000 }));
    const fast = await startReceiver();
    const slowHook = await register(t, { url: slow.url });
    await register(t, { url: fast.url });
    await emitEvent(source(t), 'ticket.created', ticketData());

    await fast.waitFor(1);
    // The slow endpoint's attempt has not finished yet: nothing waited on it.
    expect(await deliveries(t, slowHook.id)).toEqual([]);
    await app.drain();
    expect(slow.requests).toHaveLength(1);
    const [row] = await deliveries(t, slowHook.id);
    expect(row).toMatchObject({
      attempt: 1,
      statusCode: null,
      error: 'Timed out after 5 s',
      nextRetryAt: expect.any(String),
    });
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    const t = await createTenant();
    const receiver = await startReceiver(() => ({ status: 302, headers: { location: '/elsewhere' } }));
    const hook = await register(t, { url: receiver.url });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();
    expect(receiver.requests).toHaveLength(1);
    const [row] = await deliveries(t, hook.id);
    expect(row).toMatchObject({ statusCode: 302, nextRetryAt: expect.any(String) });
    expect(row.error).toContain('Redirect');
  });

  it('stops delivering, retries included, once the endpoint is deleted', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    const t = await createTenant();
    const receiver = await startReceiver(() => ({ status: 500 }));
    const hook = await register(t, { url: receiver.url });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();
    expect(receiver.requests).toHaveLength(1);

    expect((await app.call('DELETE', `/webhooks/${hook.id}`, { key: t.liveKey })).status).toBe(200);
    await emitEvent(source(t), 'ticket.created', ticketData(2));
    await app.drain();
    expect(await fireRetries()).toBeGreaterThanOrEqual(1);
    expect(receiver.requests).toHaveLength(1);
  });

  it('re-checks the target at delivery time in a deployed-stage configuration', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, { url: receiver.url });
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false' });
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();
    expect(receiver.requests).toHaveLength(0);
    const [row] = await deliveries(t, hook.id);
    expect(row.error).toMatch(/^Target refused: The URL must use https/);
  });

  it('signs with the rotated secret only after a rotation without overlap (a leaked secret)', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, { url: receiver.url });
    const rotated = await app.call('POST', `/webhooks/${hook.id}/rotate-secret`, {
      key: t.liveKey,
      body: { overlapHours: 0 },
    });
    await emitEvent(source(t), 'ticket.created', ticketData());
    await app.drain();
    const [req] = receiver.requests;
    const signature = String(req!.headers['x-service-signature']);
    expect(verifySignature(req!.body, signature, rotated.body.secret)).toBe(true);
    expect(verifySignature(req!.body, signature, hook.secret)).toBe(false);
  });
});

describe('through POST /tickets', () => {
  it('a ticket created gives exactly one ticket.created POST, signed, with the spec body', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, { url: receiver.url });
    const created = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: {
        subject: 'Refund please',
        body: 'I was charged twice.',
        customer: { email: 'bea@example.com', name: 'Bea' },
        priority: 'urgent',
      },
    });
    expect(created.status).toBe(200);
    await app.drain();

    const ticketPosts = receiver.requests.filter((r) => r.headers['x-service-event'] === 'ticket.created');
    expect(ticketPosts).toHaveLength(1);
    const [req] = ticketPosts;
    expect(verifySignature(req!.body, String(req!.headers['x-service-signature']), hook.secret)).toBe(true);
    expect(req!.json).toEqual({
      event: 'ticket.created',
      type: 'ticket.created',
      timestamp: expect.any(String),
      data: {
        ticket: {
          id: created.body.id,
          number: created.body.number,
          subject: 'Refund please',
          status: 'new',
          priority: 'urgent',
        },
        customer: { email: 'bea@example.com', name: 'Bea' },
        source: 'api',
      },
    });
  });

  it('answers POST /tickets while the receiver hangs', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    const t = await createTenant();
    let answered = false;
    const receiver = await startReceiver(() => 'hang');
    await register(t, { url: receiver.url, events: ['ticket.created'] });
    const body = { subject: 'Slow hook', body: 'Hello', customer: { email: 'cy@example.com', name: 'Cy' } };
    expect((await app.call('POST', '/tickets', { key: t.liveKey, body })).status).toBe(200);
    await receiver.waitFor(1);

    const second = await app.call('POST', '/tickets', { key: t.liveKey, body }).then((r) => ({ r, answered }));
    receiver.release();
    answered = true;
    expect(second.r.status).toBe(200);
    expect(second.answered).toBe(false);
    await app.drain();
  });
});

describe('POST /webhooks/{id}/test', () => {
  it('queues a signed sample delivery, even of an event the endpoint did not choose, and logs it', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, { url: receiver.url, events: ['ticket.resolved'] });
    const first = await app.call('POST', `/webhooks/${hook.id}/test`, { key: t.liveKey });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ queued: true, deliveryId: expect.any(String), event: 'ticket.resolved' });
    const second = await app.call('POST', `/webhooks/${hook.id}/test`, {
      key: t.liveKey,
      body: { event: 'customer.created' },
    });
    expect(second.body.event).toBe('customer.created');
    expect(
      (await app.call('POST', `/webhooks/${hook.id}/test`, { key: t.liveKey, body: { event: 'nope' } })).status,
    ).toBe(422);
    await app.drain();

    expect(receiver.requests.map((r) => r.json.event).sort()).toEqual(['customer.created', 'ticket.resolved']);
    for (const r of receiver.requests)
      expect(verifySignature(r.body, String(r.headers['x-service-signature']), hook.secret)).toBe(true);
    const resolved = receiver.requests.find((r) => r.json.event === 'ticket.resolved')!;
    expect(resolved.json.data).toMatchObject({
      ticket: { number: expect.any(Number), status: 'resolved' },
      customer: { email: expect.any(String) },
    });
    expect((await deliveries(t, hook.id)).map((d) => d.id).sort()).toEqual(
      [first.body.deliveryId, second.body.deliveryId].sort(),
    );
  });

  it('answers while the receiver hangs: the API never waits on a delivery', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '1000' });
    const t = await createTenant();
    let answered = false;
    const receiver = await startReceiver(() => 'hang');
    const hook = await register(t, { url: receiver.url });
    const queued = await app.call('POST', `/webhooks/${hook.id}/test`, { key: t.liveKey });
    expect(queued.status).toBe(200);
    await receiver.waitFor(1);

    // The receiver is holding the delivery open; the API answers these before it lets go.
    const [again, list] = await Promise.all([
      app.call('POST', `/webhooks/${hook.id}/test`, { key: t.liveKey }).then((r) => ({ r, answered })),
      app.call('GET', '/webhooks', { key: t.liveKey }).then((r) => ({ r, answered })),
    ]);
    receiver.release();
    answered = true;
    expect(again.r.status).toBe(200);
    expect(list.r.status).toBe(200);
    expect(again.answered).toBe(false);
    expect(list.answered).toBe(false);
    await app.drain();
  });
});

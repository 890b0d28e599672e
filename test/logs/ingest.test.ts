import { LogEvent } from '@helpdesk/core/areas/logs/entities';
import { LOG_RETENTION_DAYS } from '@helpdesk/core/identity/plans';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp();

const event = (over: Record<string, unknown> = {}) => ({ level: 'error', message: 'Something broke', ...over });

describe('POST /logs', () => {
  it('stores the events with fingerprint, issue id and plan retention, and answers accepted', async () => {
    const t = await createTenant({ plan: 'starter' });
    const before = Math.floor(Date.now() / 1000);
    const res = await app.call('POST', '/logs', {
      key: t.liveKey,
      body: {
        events: [
          event({
            scope: 'billing',
            timestamp: '2026-01-02T03:04:05+01:00',
            stack: 'Error\n    at f (/app/a.ts:1:1)',
            context: { orderId: 7 },
          }),
          event({ level: 'info', message: 'Hello', fingerprint: ['greeting'] }),
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accepted: 2 });

    const list = await app.call('GET', '/logs', { key: t.liveKey });
    expect(list.body.total).toBe(2);
    const stored = list.body.logs.find((e: { scope: string | null }) => e.scope === 'billing');
    expect(stored).toEqual({
      id: expect.any(String),
      level: 'error',
      message: 'Something broke',
      scope: 'billing',
      timestamp: '2026-01-02T02:04:05.000Z',
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      issueId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      stack: 'Error\n    at f (/app/a.ts:1:1)',
      context: { orderId: 7 },
      release: null,
      environment: null,
      receivedAt: expect.any(String),
    });
    const { data } = await LogEvent.query.byTime({ projectId: t.projects.main!.id, env: 'live' }).go();
    for (const row of data) {
      expect(row.expiresAt - before).toBeGreaterThanOrEqual(LOG_RETENTION_DAYS.starter * 86_400);
      expect(row.expiresAt - before).toBeLessThanOrEqual(LOG_RETENTION_DAYS.starter * 86_400 + 60);
    }
    const hello = list.body.logs.find((e: { message: string }) => e.message === 'Hello');
    expect(hello.timestamp).toBe(hello.receivedAt);
    expect(hello).toMatchObject({ scope: null, stack: null, context: null });
  });

  it('rejects the whole request with the index of each bad event, storing nothing', async () => {
    const t = await createTenant();
    const future = new Date(Date.now() + 26 * 3_600_000).toISOString();
    const res = await app.call('POST', '/logs', {
      key: t.liveKey,
      body: {
        events: [
          event(),
          event({ level: 'critical' }),
          event(),
          event({ timestamp: future }),
          event({ context: { big: 'x'.repeat(17 * 1024) } }),
          event({ extra: true }),
          event({ message: '' }),
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation.failed');
    const indexes = new Set(res.body.error.details.fields.map((f: { field: string }) => Number(f.field.split('.')[1])));
    expect([...indexes].sort()).toEqual([1, 3, 4, 5, 6]);
    expect((await app.call('GET', '/logs', { key: t.liveKey })).body.total).toBe(0);
  });

  it('accepts 1 to 100 events and a timestamp up to 24 hours ahead', async () => {
    const t = await createTenant();
    expect((await app.call('POST', '/logs', { key: t.liveKey, body: { events: [] } })).status).toBe(422);
    const tooMany = Array.from({ length: 101 }, () => event());
    expect((await app.call('POST', '/logs', { key: t.liveKey, body: { events: tooMany } })).status).toBe(422);
    const ahead = new Date(Date.now() + 23 * 3_600_000).toISOString();
    const hundred = Array.from({ length: 100 }, (_, i) => event({ message: `Job ${i} failed`, timestamp: ahead }));
    const res = await app.call('POST', '/logs', { key: t.liveKey, body: { events: hundred } });
    expect(res.body).toEqual({ accepted: 100 });
    expect((await app.call('GET', '/logs', { key: t.liveKey, query: { limit: 1 } })).body.total).toBe(100);
  });

  it('needs logs:write to ingest and logs:read to list', async () => {
    const t = await createTenant();
    const reader = await t.key({ scopes: ['logs:read'] });
    const writer = await t.key({ scopes: ['logs:write'] });
    expect((await app.call('POST', '/logs', { key: reader, body: { events: [event()] } })).status).toBe(403);
    expect((await app.call('POST', '/logs', { key: writer, body: { events: [event()] } })).status).toBe(200);
    expect((await app.call('GET', '/logs', { key: writer })).status).toBe(403);
    expect((await app.call('GET', '/log-issues', { key: writer })).status).toBe(403);
    expect((await app.call('GET', '/logs', { key: reader })).status).toBe(200);
  });
});

describe('log event quota', () => {
  it('refuses a live batch that would cross the monthly allowance and stores none of it', async () => {
    const t = await createTenant({ plan: 'free', limits: { logEvents: 5 } });
    const batch = (n: number) => ({ events: Array.from({ length: n }, () => event()) });
    expect((await app.call('POST', '/logs', { key: t.liveKey, body: batch(3) })).body).toEqual({ accepted: 3 });
    const over = await app.call('POST', '/logs', { key: t.liveKey, body: batch(3) });
    expect(over.status).toBe(403);
    expect(over.body.error).toMatchObject({
      code: 'plan.log_event_limit',
      details: { allowance: 5, current: 3, requested: 3 },
    });
    expect(over.body.error.message).toMatch(/log event allowance/);
    expect((await app.call('GET', '/logs', { key: t.liveKey })).body.total).toBe(3);
    expect((await app.call('POST', '/logs', { key: t.liveKey, body: batch(2) })).body).toEqual({ accepted: 2 });
    expect((await app.call('POST', '/logs', { key: t.liveKey, body: batch(1) })).status).toBe(403);
  });

  it('does not count sandbox events', async () => {
    const t = await createTenant({ plan: 'free', limits: { logEvents: 5 } });
    const batch = { events: Array.from({ length: 10 }, () => event()) };
    expect((await app.call('POST', '/logs', { key: t.sandboxKey, body: batch })).body).toEqual({ accepted: 10 });
    expect((await app.call('POST', '/logs', { key: t.sandboxKey, body: batch })).body).toEqual({ accepted: 10 });
    expect(
      (await app.call('POST', '/logs', { key: t.liveKey, body: { events: batch.events.slice(0, 5) } })).body,
    ).toEqual({ accepted: 5 });
    // Sandbox and live events are kept apart.
    expect((await app.call('GET', '/logs', { key: t.sandboxKey })).body.total).toBe(20);
    expect((await app.call('GET', '/logs', { key: t.liveKey })).body.total).toBe(5);
  });
});

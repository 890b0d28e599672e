import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp();

describe('log input edges', () => {
  it('refuses a context that is not a JSON object, and keeps every key of one that is', async () => {
    const t = await createTenant();
    for (const context of [[1, 2], null, 'text', 3]) {
      const res = await app.call('POST', '/logs', {
        key: t.liveKey,
        body: { events: [{ level: 'info', message: 'ctx', context }] },
      });
      expect(res.status, JSON.stringify(context)).toBe(422);
      expect(res.body.error.details.fields[0]).toMatchObject({
        field: 'events.0.context',
        message: 'Expected a JSON object',
      });
    }
    const raw =
      '{"events":[{"level":"info","message":"odd keys","context":{"":1,"__proto__":{"x":1},"constructor":2}}]}';
    const ok = await app.call('POST', '/logs', {
      key: t.liveKey,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(200);
    const listed = await app.call('GET', '/logs', { key: t.liveKey, query: { search: 'odd keys' } });
    expect(JSON.stringify(listed.body.logs[0].context)).toBe('{"":1,"__proto__":{"x":1},"constructor":2}');
  });

  it('answers a bad timestamp with one message, and a reversed or impossible date range with 422', async () => {
    const t = await createTenant();
    const bad = await app.call('POST', '/logs', {
      key: t.liveKey,
      body: { events: [{ level: 'info', message: 'x', timestamp: 'yesterday' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields.map((f: { message: string }) => f.message).join(' ')).not.toContain('future');
    for (const query of [
      { dateFrom: '2026-11-12', dateTo: '2026-11-10' },
      { dateFrom: '2026-11-12T00:00:01Z', dateTo: '2026-11-12T00:00:00Z' },
      { dateFrom: '2026-02-30' },
      { dateTo: '2026-11-31' },
    ]) {
      const res = await app.call('GET', '/logs', { key: t.liveKey, query });
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    expect(
      (await app.call('GET', '/logs', { key: t.liveKey, query: { dateFrom: '2026-11-10', dateTo: '2026-11-10' } }))
        .status,
    ).toBe(200);
  });
});

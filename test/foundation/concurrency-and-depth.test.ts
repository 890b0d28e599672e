import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { createTicket } from '../tickets/helpers.js';

const app = await startTestApp();
/**
 * Writers of each kind on one ticket: enough that most attempts conflict (each commit moves the item the
 * others read), few enough that their retries (quadratic in the writers) do not take minutes under load.
 */
const WRITERS = 8;

describe('bursts and extremes', () => {
  it('answers parallel writes to one ticket and same-title article creates with 200 or 409 (503 if overloaded), never 500', async () => {
    const t = await createTenant();
    const key = await t.key({ rateLimit: 10_000 });
    const ticket = await createTicket(app, key);
    const priorities = ['low', 'medium', 'high', 'urgent'];
    const results = await Promise.all([
      ...Array.from({ length: WRITERS }, (_, i) =>
        app.call('PATCH', `/tickets/${ticket.id}`, { key, body: { priority: priorities[i % 4] } }),
      ),
      ...Array.from({ length: WRITERS }, (_, i) =>
        app.call('POST', `/tickets/${ticket.id}/messages`, {
          key,
          body: { body: `race ${i}`, visibility: 'internal' },
        }),
      ),
      ...Array.from({ length: 10 }, () => app.call('POST', '/articles', { key, body: { title: 'Race two' } })),
    ]);
    const statuses = results.map((r) => r.status);
    // On a machine running the whole suite at once, 16 writers of one item can outlast the function's
    // time: those answer 503 with Retry-After (the overload answer), never a 500.
    expect(
      statuses.every((s) => s === 200 || s === 409 || s === 503),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('conflict');
    for (const r of results.filter((x) => x.status === 503)) {
      expect(r.body.error.code).toBe('service.unavailable');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const slugs = results.filter((r) => r.status === 200 && r.body.slug).map((r) => r.body.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    await app.drain();
    const detail = await app.call('GET', `/tickets/${ticket.id}`, { key });
    const answered = results.slice(WRITERS, 2 * WRITERS);
    const written = answered.filter((r) => r.status === 200).length;
    const timedOut = answered.filter((r) => r.status === 503).length;
    // Every 200 is a message; a write that ran out of time may still have committed (a retry would repeat it).
    expect(detail.body.messages.length).toBeGreaterThanOrEqual(1 + written);
    expect(detail.body.messages.length).toBeLessThanOrEqual(1 + written + timedOut);
  }, 300_000);

  it('answers parallel same-name category creates and externalId moves on one customer with 200 or 409 (503 if overloaded), never 500', async () => {
    const t = await createTenant();
    const key = await t.key({ rateLimit: 10_000 });
    const customer = await app.call('POST', '/customers', { key, body: { email: 'burst@example.com' } });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () =>
        app.call('POST', '/article-categories', { key, body: { name: 'Burst category' } }),
      ),
      ...Array.from({ length: WRITERS }, (_, i) =>
        app.call('PATCH', `/customers/${customer.body.id}`, { key, body: { externalId: `ext-${i}` } }),
      ),
    ]);
    const statuses = results.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 409 || s === 503),
      statuses.join(','),
    ).toBe(true);
    const slugs = results
      .slice(0, 10)
      .filter((r) => r.status === 200)
      .map((r) => r.body.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  }, 120_000);

  it('refuses JSON nested too deeply, or with a number no double holds, for a log context or template variables with 422', async () => {
    const t = await createTenant();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const logs = await app.call('POST', '/logs', {
      key: t.liveKey,
      rawBody: `{"events":[{"level":"error","message":"m","context":${deep}}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(logs.status).toBe(422);
    expect(logs.body.error.details.fields[0]).toMatchObject({
      field: 'events.0.context',
      message: 'Nested deeper than 32 levels',
    });
    const preview = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      rawBody: `{"templateKey":"x","variables":${deep}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(preview.status).toBe(422);
    // JSON.parse reads 1e400 as Infinity, which would be stored as null: refused rather than changed.
    const huge = await app.call('POST', '/logs', {
      key: t.liveKey,
      rawBody: '{"events":[{"level":"info","message":"m","context":{"n":{"deeper":[1e400]}}}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(422);
    expect(huge.body.error.details.fields[0]).toMatchObject({ field: 'events.0.context' });
    expect(huge.body.error.details.fields[0].message).toContain('Numbers must fit a double');
  });

  it('refuses attachment names with control characters or lone surrogates, and inverted email date ranges', async () => {
    const t = await createTenant();
    const ticket = await createTicket(app, t.liveKey);
    for (const fileName of ['\ud800', 'a\u0000b', 'a\u007fb']) {
      const res = await app.call('POST', `/tickets/${ticket.id}/messages`, {
        key: t.liveKey,
        body: { body: 'x', attachments: [{ fileName, mimeType: 'text/plain', content: 'aGk=' }] },
      });
      expect(res.status, JSON.stringify(fileName)).toBe(422);
    }
    for (const query of [{ dateFrom: '2030-01-01', dateTo: '2020-01-01' }]) {
      expect((await app.call('GET', '/emails', { key: t.liveKey, query })).status).toBe(422);
    }
    expect((await app.call('GET', '/emails', { key: t.liveKey, query: { dateTo: '9999-12-31' } })).status).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { isPlainObject } from '@helpdesk/core/kernel/api/schemas';
import { signToken } from '@helpdesk/core/kernel/links/signed';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp({ consumers: false });

const jsonRoutes = allRoutes.filter((r) => r.body && r.bodyType !== 'multipart');

/** Object schemas anywhere inside `schema` that take an array (valibot's objects only ask for typeof 'object'). */
function objectsTakingArrays(
  schema: unknown,
  path: string,
  found: string[],
  seen = new Set<unknown>(),
  guarded = false,
) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return found;
  seen.add(schema);
  const s = schema as Record<string, unknown> & { type?: string };
  if (!guarded && /object|record/.test(s.type ?? '') && v.safeParse(s as unknown as v.GenericSchema, []).success)
    found.push(path);
  for (const [k, e] of Object.entries((s.entries as Record<string, unknown>) ?? {}))
    objectsTakingArrays(e, `${path}.${k}`, found, seen);
  const pipe = ((s.pipe as { type?: string; requirement?: unknown }[]) ?? []).slice(1);
  // An object schema piped after a check for a plain object (alert rules' filters and actions) never sees an array.
  const checked = pipe.some((a) => a.type === 'check' && a.requirement === isPlainObject);
  for (const child of pipe) objectsTakingArrays(child, path, found, seen, checked);
  for (const child of [s.wrapped, s.item, s.value, ...((s.options as unknown[]) ?? [])])
    objectsTakingArrays(child, path, found, seen);
  return found;
}

describe('JSON bodies', () => {
  it('refuses an array, null, a string or a number with 422 on every route that takes a JSON body', async () => {
    const t = await createTenant();
    // Five bodies for each of some thirty routes: more than the default 100 requests a minute.
    const key = await t.key({ rateLimit: 1000 });
    expect(jsonRoutes.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const route of jsonRoutes) {
      // Root routes (the console's forms) have absolute paths; the others are under /api/v1, which app.call adds.
      // A page token must verify (a forged one is 404 before the body is read); any id will do.
      const path = route.path.replace(/\{([^}]+)\}/g, (_, name) =>
        name === 'token'
          ? signToken([route.path.includes('/feedback/') ? 'r' : 't', randomUUID(), 'live', randomUUID()])
          : name === 'key'
            ? 'order_id' // a ticket field's key
            : randomUUID(),
      );
      for (const raw of ['[]', 'null', '"x"', '1', '[{"event":"ticket.created"}]']) {
        const res = await app.call(route.method, path, {
          key: route.tenancy === 'public' ? undefined : key,
          rawBody: raw,
          headers: { 'content-type': 'application/json' },
        });
        const field = res.body?.error?.details?.fields?.[0];
        if (res.status !== 422 || res.body.error.code !== 'validation.failed' || field?.field !== '(body)') {
          wrong.push(`${route.id} ${raw}: ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no object schema, at any depth of a body, that would take an array', () => {
    const found = jsonRoutes.flatMap((r) => objectsTakingArrays(r.body, r.id, []).filter((p) => p !== r.id));
    expect(found).toEqual([]);
  });

  it('still reads a missing body as {} where every field is optional', async () => {
    const t = await createTenant();
    const hook = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: 'http://127.0.0.1:9/hook', events: ['ticket.created'] },
    });
    const test = await app.call('POST', `/webhooks/${hook.body.id}/test`, { key: t.liveKey });
    expect(test.status).toBe(200);
    expect(test.body.event).toBe('ticket.created');
    const patched = await app.call('PATCH', `/webhooks/${hook.body.id}`, {
      key: t.liveKey,
      rawBody: '[]',
      headers: { 'content-type': 'application/json' },
    });
    expect(patched.status).toBe(422);
  });
});

describe('body media types', () => {
  it('reads a JSON body sent as JSON or without a type, and refuses other types and compressed bodies', async () => {
    const t = await createTenant();
    const body = JSON.stringify({ subject: 'Typed', body: 'b', customer: { email: 'typed@example.com' } });
    const post = (headers: Record<string, string>, rawBody: RequestInit['body'] = body) =>
      app.call('POST', '/tickets', { key: t.liveKey, headers, rawBody });
    expect((await post({ 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
    // A byte body gets no Content-Type from fetch.
    expect((await post({}, Buffer.from(body))).status).toBe(200);
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const res = await post({ 'content-type': type });
      expect(res.status, type).toBe(422);
      expect(res.body.error.details.fields[0]).toMatchObject({ field: 'Content-Type', in: 'header' });
    }
    const gzip = await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(gzip.status).toBe(422);
    expect(gzip.body.error.details.fields[0]).toMatchObject({ field: 'Content-Encoding', in: 'header' });
    // Nothing was created by the refused ones.
    expect((await app.call('GET', '/tickets', { key: t.liveKey })).body.total).toBe(2);
  });
});

describe('dates and date-times', () => {
  const year = new Date().getUTCFullYear();
  /** Each parses in JavaScript (as another day, or not at all) but names no real instant. */
  const impossible = [`${year + 1}-02-30T10:00:00Z`, `${year}-11-31T10:00:00Z`, `${year}-06-15T10:00:00+05`];
  const soon = () => new Date(Date.now() + 3_600_000).toISOString();

  it('refuses a date-time in a body that does not exist on the calendar, naming the field', async () => {
    const t = await createTenant();
    const cases: [string, (at: string) => unknown, string][] = [
      ['/logs', (at) => ({ events: [{ level: 'info', message: 'm', timestamp: at }] }), 'events.0.timestamp'],
      ['/emails/send', (at) => ({ to: 'd@example.com', subject: 's', body: 'b', scheduledAt: at }), 'scheduledAt'],
    ];
    const wrong: string[] = [];
    for (const [path, body, field] of cases) {
      for (const at of impossible) {
        const res = await app.call('POST', path, { key: t.liveKey, body: body(at) });
        const messages = (res.body?.error?.details?.fields ?? [])
          .filter((f: { field: string }) => f.field === field)
          .map((f: { message: string }) => f.message);
        if (res.status !== 422 || !messages.some((m: string) => /calendar|ISO 8601/.test(m)))
          wrong.push(`${path} ${at}: ${res.status} ${res.text.slice(0, 200)}`);
      }
      const ok = await app.call('POST', path, {
        key: t.liveKey,
        body: body(path === '/logs' ? `${year}-02-28T10:00:00Z` : soon()),
      });
      expect(ok.status, `${path}: ${ok.text}`).toBe(200);
    }
    const batch = await app.call('POST', '/emails/batch', {
      key: t.liveKey,
      body: { emails: [{ to: 'd@example.com', subject: 's', body: 'b', scheduledAt: impossible[0] }] },
    });
    expect(batch.body.results[0].error).toMatchObject({ code: 'validation.failed' });
    expect(wrong).toEqual([]);
  });

  it('refuses dateFrom/dateTo that are not a real date, or a date-time without a time zone, on every list that takes them', async () => {
    const t = await createTenant();
    const lists = allRoutes.filter((r) => r.method === 'GET' && r.query && 'dateFrom' in r.query);
    expect(lists.map((r) => r.path).sort()).toEqual(['/emails', '/logs']);
    const wrong: string[] = [];
    for (const route of lists) {
      for (const name of ['dateFrom', 'dateTo']) {
        for (const value of [...impossible, `${year}-02-30`, `${year}-01-31T10:00:00`]) {
          const res = await app.call('GET', route.path, { key: t.liveKey, query: { [name]: value } });
          if (res.status !== 422 || res.body.error.details.fields[0].field !== name)
            wrong.push(`${route.path} ${name}=${value}: ${res.status}`);
        }
        for (const value of [`${year}-02-28`, `${year}-01-31T10:00:00+01:00`]) {
          const res = await app.call('GET', route.path, { key: t.liveKey, query: { [name]: value } });
          if (res.status !== 200) wrong.push(`${route.path} ${name}=${value}: ${res.status} (expected 200)`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('text people read', () => {
  it('refuses control characters in names and titles, and in bodies all but tabs and line breaks', async () => {
    const t = await createTenant({ plan: 'pro' });
    const post = (path: string, body: unknown) => app.call('POST', path, { key: t.liveKey, body });
    const refused = async (path: string, body: unknown, field: string) => {
      const res = await post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    };
    await refused('/articles', { title: 'Ctl\u0000\u001b[31mTitle\u0007', body: 'b', status: 'published' }, 'title');
    await refused('/articles', { title: 'Two\nlines', body: 'b' }, 'title');
    await refused('/article-categories', { name: 'Bell\u0007' }, 'name');
    await refused('/customers', { email: 'ctl@example.com', externalId: 'a\u0000b' }, 'externalId');
    await refused('/tickets', { subject: 'Hi\u0000', body: 'b', customer: { email: 'c@example.com' } }, 'subject');
    await refused('/tickets', { subject: 'Hi', body: 'nul \u0000 here', customer: { email: 'c@example.com' } }, 'body');
    await refused('/feedback/conversations', { customer: { email: 'c@example.com' }, body: 'esc \u001b[2J' }, 'body');
    await refused('/feedback/requests', { customer: { email: 'c@example.com' }, message: 'bell \u0007' }, 'message');
    // JSON can spell a lone surrogate; it is no text (no UTF-8 for it, in the table or in mail).
    await refused('/tickets', { subject: 'Hi', body: 'lone \ud800', customer: { email: 'c@example.com' } }, 'body');
    await refused('/articles', { title: 'Lone \udc00', body: 'b' }, 'title');
    // Tabs and line breaks are text in a body.
    const ticket = await post('/tickets', {
      subject: 'Indented',
      body: 'Line one\r\n\tLine two',
      customer: { email: 'c@example.com' },
    });
    expect(ticket.status).toBe(200);
    const message = await app.call('POST', `/tickets/${ticket.body.id}/messages`, {
      key: t.liveKey,
      body: { body: 'vertical \u000b tab' },
    });
    expect(message.status).toBe(422);
  });

  it('counts text limits in characters, as the OpenAPI maxLength does: an emoji is one', async () => {
    const t = await createTenant();
    const emoji = '\u{1F600}';
    const create = (subject: string, body: string) =>
      app.call('POST', '/tickets', { key: t.liveKey, body: { subject, body, customer: { email: 'e@example.com' } } });
    const ticket = await create(emoji.repeat(200), emoji.repeat(10_000));
    expect(ticket.status).toBe(200);
    expect(ticket.body.subject).toBe(emoji.repeat(200));
    const over = await create(emoji.repeat(201), emoji.repeat(10_001));
    expect(over.status).toBe(422);
    expect(over.body.error.details.fields).toEqual([
      { field: 'subject', in: 'body', message: 'At most 200 characters' },
      { field: 'body', in: 'body', message: 'At most 10000 characters' },
    ]);
    const message = (body: string) =>
      app.call('POST', `/tickets/${ticket.body.id}/messages`, {
        key: t.liveKey,
        body: { body, visibility: 'internal' },
      });
    expect((await message(emoji.repeat(10_000))).status).toBe(200);
    expect((await message(emoji.repeat(10_001))).status).toBe(422);
    const preview = (subject: string) =>
      app.call('POST', '/emails/preview', { key: t.liveKey, body: { subject, body: emoji.repeat(50_000) } });
    expect((await preview(emoji.repeat(200))).status).toBe(200);
    expect((await preview(emoji.repeat(201))).status).toBe(422);
    const log = (message: string) =>
      app.call('POST', '/logs', { key: t.liveKey, body: { events: [{ level: 'info', message }] } });
    expect((await log(emoji.repeat(10_000))).status).toBe(200);
    expect((await log(emoji.repeat(10_001))).status).toBe(422);
    // Free text that is no key counts characters too: queries, a phone, a file name, excerpts and descriptions.
    const at = async (method: string, path: string, make: (s: string) => object, max: number, query = false) => {
      for (const [n, status] of [
        [max, 200],
        [max + 1, 422],
      ] as const) {
        const value = make(emoji.repeat(n));
        const res = await app.call(
          method,
          path,
          query ? { key: t.liveKey, query: value as never } : { key: t.liveKey, body: value },
        );
        expect([path, n, res.status]).toEqual([path, n, status]);
      }
    };
    await at('GET', '/articles/search', (q) => ({ q }), 500, true);
    await at('GET', '/tickets', (search) => ({ search }), 200, true);
    await at('GET', '/customers', (search) => ({ search }), 200, true);
    await at('POST', '/customers', (phone) => ({ email: `${phone.length}@example.com`, phone }), 50);
    await at('POST', '/articles', (excerpt) => ({ title: 'T', body: 'B', excerpt }), 500);
    await at('POST', '/article-categories', (description) => ({ name: `C${description.length}`, description }), 1000);
    await at(
      'POST',
      `/tickets/${ticket.body.id}/messages`,
      (fileName) => ({ body: 'File', attachments: [{ fileName, mimeType: 'text/plain', content: 'eA==' }] }),
      255,
    );
  });

  it('refuses a search category that is no slug, as every exact-match filter', async () => {
    const t = await createTenant();
    for (const category of ['', 'A_B', '1,2', '\u0000'])
      expect((await app.call('GET', '/articles/search', { key: t.liveKey, query: { q: 'x', category } })).status).toBe(
        422,
      );
    expect(
      (await app.call('GET', '/articles/search', { key: t.liveKey, query: { q: 'x', category: 'getting-started' } }))
        .status,
    ).toBe(200);
  });

  it('answers a list of 20,000 bad items with the first 20 issues', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/logs', {
      key: t.liveKey,
      rawBody: JSON.stringify({ events: Array.from({ length: 20_000 }, () => 0) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields).toHaveLength(20);
    expect(res.text.length).toBeLessThan(5_000);
  });
});

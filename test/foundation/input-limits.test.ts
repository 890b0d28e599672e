import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MAX_PAGE } from '@helpdesk/core/kernel/api/schemas';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp({ consumers: false });

/**
 * Limits count UTF-16 code units (JavaScript's length); '€' is one unit but three UTF-8 bytes, the most
 * bytes per unit, so a value of `wide(n)` is n characters and 3n bytes of DynamoDB key.
 */
const wide = (n: number) => '€'.repeat(n);
const long = (n: number) => 'a'.repeat(n);

/** What went wrong, collected so one run names every input that misbehaves. */
let problems: string[] = [];
const check = (ok: boolean, what: string, res: ApiResponse) => {
  if (!ok) problems.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
};
/** Never a 500: a 4xx is the documented refusal, a 2xx the documented empty result. */
const expectHandled = (res: ApiResponse, what: string) => check(res.status < 500, what, res);
const expect422On = (res: ApiResponse, field: string, what: string) =>
  check(
    res.status === 422 && (res.body?.error?.details?.fields ?? []).some((f: { field: string }) => f.field === field),
    `${what} (422 on ${field})`,
    res,
  );
beforeEach(() => {
  problems = [];
});
const expectNoProblems = () => {
  const found = problems;
  problems = [];
  expect(found).toEqual([]);
};

describe('paging, on every list route', () => {
  // API lists; pages outside the API (the help center's search) page their own way.
  const lists = allRoutes.filter((r) => !r.root && r.method === 'GET' && r.query && 'page' in r.query);

  it('answers a page past the end with 200, no rows and the real total; a page above the maximum with 422', async () => {
    expect(lists.map((r) => r.id).sort()).toEqual(
      [
        'listArticles',
        'listFeedbackConversations',
        'listCustomers',
        'listEmails',
        'listFeedbackRequests',
        'listLogAlerts',
        'listLogIssues',
        'listLogs',
        'listTickets',
        'listWebhookDeliveries',
        'searchArticles',
      ].sort(),
    );
    const doc = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
    for (const route of lists) {
      const page = doc.paths[route.path].get.parameters.find((p: { name: string }) => p.name === 'page');
      expect(page.schema, route.id).toMatchObject({ type: 'integer', minimum: 1, maximum: MAX_PAGE });
    }
    const t = await createTenant();
    const hook = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: 'http://127.0.0.1:9/hook' } });
    expect(hook.status).toBe(200);
    expect(
      (
        await app.call('POST', '/tickets', {
          key: t.liveKey,
          body: { subject: 's', body: 'b', customer: { email: 'pager@example.com' } },
        })
      ).status,
    ).toBe(200);
    for (const route of lists) {
      const path = route.path.replace('{id}', hook.body.id);
      const past = await app.call('GET', path, { key: t.liveKey, query: { page: MAX_PAGE, limit: 100 } });
      const rows =
        past.status === 200 ? Object.values(past.body as Record<string, unknown>).find(Array.isArray) : undefined;
      const total =
        route.id === 'listTickets' || route.id === 'listCustomers' ? 1 : route.id === 'searchArticles' ? undefined : 0;
      check(
        past.status === 200 && rows?.length === 0 && past.body.total === total,
        `${route.id} page=${MAX_PAGE}`,
        past,
      );
      for (const page of [MAX_PAGE + 1, 99999999999, '1e3']) {
        expect422On(
          await app.call('GET', path, { key: t.liveKey, query: { page } }),
          'page',
          `${route.id} page=${page}`,
        );
      }
    }
    expectNoProblems();
  });
});

describe('inputs that become part of a DynamoDB key', () => {
  it('refuses over-long query filters with 422 naming the parameter, and answers wide ones within the limit', async () => {
    const t = await createTenant();
    const key = t.liveKey;
    const cursor = (u: string, id: string) => Buffer.from(JSON.stringify({ u, t: id })).toString('base64url');
    const refused: [string, Record<string, string>, string][] = [
      ['/articles/search', { category: long(1100) }, 'category'],
      ['/articles/search', { category: wide(300) }, 'category'],
      ['/emails', { to: `${long(1100)}@example.com` }, 'to'],
      ['/emails', { to: wide(600) }, 'to'],
      ['/emails', { templateKey: long(1100) }, 'templateKey'],
      ['/emails', { templateKey: wide(600) }, 'templateKey'],
      ['/customers', { externalId: long(1100) }, 'externalId'],
      ['/tickets', { assignee: long(3000) }, 'assignee'],
      ['/tickets', { assignee: `unassigned,${wide(600)}` }, 'assignee'],
      ['/tickets', { cursor: cursor(long(2000), randomUUID()) }, 'cursor'],
      ['/tickets', { cursor: cursor(new Date().toISOString(), wide(600)) }, 'cursor'],
      ['/tickets', { cursor: long(5000) }, 'cursor'],
      ['/logs', { scope: long(1100) }, 'scope'],
      ['/log-issues', { scope: long(1100) }, 'scope'],
    ];
    for (const [path, query, field] of refused) {
      expect422On(await app.call('GET', path, { key, query }), field, `${path} ${field}`);
    }
    // At the documented limits, in four-byte characters: within the key limit, so an ordinary empty answer.
    const fine: [string, Record<string, string>][] = [
      // A category slug of 200 characters (slugs are lower-case letters, digits and dashes).
      ['/articles/search', { category: long(200) }],
      // A mailbox as a send names it, 319 of its 320 characters: a wide display name and a 64-character local part.
      ['/emails', { to: `${wide(240)} <${long(64)}@example.com>` }],
      // The longest reference a send can name: an account template's key of 100 characters.
      ['/emails', { templateKey: `@account/${long(100)}` }],
      ['/customers', { externalId: wide(255) }],
      ['/logs', { scope: wide(200), fingerprint: wide(1000) }],
      ['/log-issues', { scope: wide(200) }],
    ];
    for (const [path, query] of fine) {
      const res = await app.call('GET', path, { key, query });
      const rows =
        res.status === 200 ? Object.values(res.body as Record<string, unknown>).find(Array.isArray) : undefined;
      check(rows?.length === 0, `${path} ${Object.keys(query).join(',')} at the limit`, res);
    }
    const ticket = await app.call('POST', '/tickets', {
      key,
      body: { subject: 's', body: 'b', customer: { email: 'k@example.com' } },
    });
    for (const tag of [long(1100), wide(51)]) {
      expect422On(
        await app.call('DELETE', `/tickets/${ticket.body.id}/tags`, { key, query: { tag } }),
        'tag',
        'DELETE tag',
      );
    }
    const untag = await app.call('DELETE', `/tickets/${ticket.body.id}/tags`, { key, query: { tag: wide(50) } });
    check(untag.status === 200, 'DELETE tag at the limit', untag);
    for (const k of [long(1100), wide(300)]) {
      for (const path of [
        `/email-templates/${encodeURIComponent(k)}/schema`,
        `/email-templates/@account/${encodeURIComponent(k)}/schema`,
      ]) {
        const res = await app.call('GET', path, { key });
        check(res.status === 404, path.slice(0, 40), res);
      }
    }
    expectHandled(await app.call('GET', `/public/feedback/${long(1100)}`), 'public token');
    expectHandled(
      await app.call('GET', '/tickets', { key, headers: { 'Service-Project': long(1100) } }),
      'project header',
    );
    expectHandled(await app.call('GET', '/tickets', { key, query: { project: long(1100) } }), 'project query');
    expectHandled(await app.call('GET', '/tickets', { headers: { authorization: `Bearer ${long(5000)}` } }), 'bearer');
    expect422On(
      await app.call('POST', '/emails/send', {
        key,
        headers: { 'Idempotency-Key': long(1100) },
        body: { to: 'x@example.com', subject: 's', body: 'b' },
      }),
      'Idempotency-Key',
      'Idempotency-Key',
    );
    expectNoProblems();
  });

  it('refuses over-long body values with 422 naming the field, and takes wide ones at the limit', async () => {
    const t = await createTenant();
    const key = t.liveKey;
    const ticket = await app.call('POST', '/tickets', {
      key,
      body: { subject: 's', body: 'b', customer: { email: 'b@example.com' } },
    });
    const send = (extra: Record<string, unknown>) => ({ to: 'x@example.com', ...extra });
    const refused: [string, string, unknown, string][] = [
      [
        'POST',
        '/tickets',
        { subject: 's', body: 'b', customer: { email: `${long(1100)}@example.com` } },
        'customer.email',
      ],
      [
        'POST',
        '/tickets',
        { subject: 's', body: 'b', customer: { email: 'c@example.com' }, tags: [long(1100)] },
        'tags.0',
      ],
      [
        'POST',
        '/tickets',
        { subject: 's', body: 'b', customer: { email: 'c@example.com' }, tags: [wide(51)] },
        'tags.0',
      ],
      ['POST', `/tickets/${ticket.body.id}/tags`, { tag: wide(300) }, 'tag'],
      ['POST', '/customers', { email: `${wide(300)}@example.com` }, 'email'],
      ['POST', '/customers', { email: 'e@example.com', externalId: long(1100) }, 'externalId'],
      ['POST', '/customers', { email: 'e@example.com', externalId: wide(256) }, 'externalId'],
      ['POST', '/articles', { title: 't', slug: long(1100) }, 'slug'],
      ['POST', '/articles', { title: 't', slug: wide(100) }, 'slug'],
      ['POST', '/article-categories', { name: 'n', slug: long(1100) }, 'slug'],
      ['POST', '/emails/send', send({ templateKey: long(1100) }), 'templateKey'],
      ['POST', '/emails/send', send({ templateKey: 'a', layout: long(1100) }), 'layout'],
      ['POST', '/emails/send', send({ subject: 's', body: 'b', to: `${long(1100)}@example.com` }), 'to'],
      ['POST', '/emails/send', send({ subject: 's', body: 'b', cc: [`${long(1100)}@example.com`] }), 'cc.0'],
      [
        'POST',
        '/emails/batch',
        { emails: [send({ subject: 's', body: 'b', idempotencyKey: long(1100) })] },
        'emails.0.idempotencyKey',
      ],
      ['POST', '/logs', { events: [{ level: 'info', message: 'm', scope: long(1100) }] }, 'events.0.scope'],
      [
        'POST',
        '/logs',
        { events: [{ level: 'info', message: 'm', fingerprint: [long(1100)] }] },
        'events.0.fingerprint.0',
      ],
      [
        'POST',
        '/feedback/conversations',
        { customer: { email: `${long(1100)}@example.com` }, body: 'b' },
        'customer.email',
      ],
      ['POST', '/feedback/requests', { customer: { email: `${long(1100)}@example.com` } }, 'customer.email'],
    ];
    for (const [method, path, body, field] of refused) {
      const res = await app.call(method, path, { key, body });
      if (path === '/emails/batch')
        check(res.status === 200 && res.body.results[0].error?.code === 'validation.failed', field, res);
      else expect422On(res, field, `${method} ${path} ${field}`);
    }
    expectNoProblems();
    // At the documented limits, in four-byte characters: stored, read back and found again by key.
    const tags = await app.call('POST', `/tickets/${ticket.body.id}/tags`, { key, body: { tag: wide(50) } });
    expect(tags.body.tags).toContain(wide(50));
    const customer = await app.call('POST', '/customers', {
      key,
      body: { email: 'w@example.com', externalId: wide(255) },
    });
    expect(customer.status).toBe(200);
    const found = await app.call('GET', '/customers', { key, query: { externalId: wide(255) } });
    expect(found.body.customers.map((c: { id: string }) => c.id)).toEqual([customer.body.id]);
    const taken = await app.call('POST', '/customers', {
      key,
      body: { email: 'w2@example.com', externalId: wide(255) },
    });
    expect(taken.body.error.code).toBe('customer.external_id_taken');
    const unknown = await app.call('POST', '/emails/send', { key, body: send({ templateKey: wide(100) }) });
    expect([unknown.status, unknown.body.error.code]).toEqual([422, 'template.not_found']);
    const wideKey = await app.call('POST', '/emails/send', {
      key,
      headers: { 'Idempotency-Key': long(256) },
      body: send({ subject: 's', body: 'b' }),
    });
    expect(wideKey.status).toBe(200);
  });

  it('answers a request line or headers too large for the server with 431 and the error shape, never an empty answer', async () => {
    const res = await fetch(`${app.apiUrl}/tickets?search=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toMatchObject({ error: { code: 'validation.failed', message: expect.any(String) } });
    const headers = await fetch(`${app.apiUrl}/tickets`, { headers: { 'x-padding': 'b'.repeat(20_000) } });
    expect(headers.status).toBe(431);
    expect(((await headers.json()) as { error: { code: string } }).error.code).toBe('validation.failed');
    // Refused before any route runs, so every operation documents it.
    const doc = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
    const operations = Object.values(doc.paths).flatMap((p) =>
      Object.values(p as Record<string, { responses: object }>),
    );
    expect(operations.length).toBeGreaterThan(50);
    for (const op of operations) expect(Object.keys(op.responses)).toContain('431');
  });
});

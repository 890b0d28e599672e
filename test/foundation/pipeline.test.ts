import { randomUUID } from 'node:crypto';
import { listApiKeys, revokeApiKey } from '@helpdesk/core/identity/keys';
import { clearPrincipalCache, KEY_CACHE_TTL_MS, resolvePrincipal } from '@helpdesk/core/identity/principal';
import { defineRoute } from '@helpdesk/core/kernel/api/route';
import { pageQuery, uuid } from '@helpdesk/core/kernel/api/schemas';
import { dynamo, entityConfig, SERVICE } from '@helpdesk/core/kernel/db/client';
import { errors } from '@helpdesk/core/kernel/errors/common';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';
import { Entity } from 'electrodb';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../packages/local/src/lambda-context.js';
import { apiEvent, invoke } from '../support/events.js';
import { createTenant } from '../support/fixtures.js';

/** A project-scoped record, stored the way every area stores its records. */
const Thing = new Entity(
  {
    model: { entity: 'testThing', version: '1', service: SERVICE },
    attributes: {
      projectId: { type: 'string', required: true },
      env: { type: ['live', 'sandbox'] as const, required: true },
      thingId: { type: 'string', required: true },
      name: { type: 'string', required: true },
    },
    indexes: {
      byId: { pk: { field: 'pk', composite: ['projectId', 'env', 'thingId'] }, sk: { field: 'sk', composite: [] } },
    },
  },
  entityConfig(),
);

const routes = {
  getThing: defineRoute({
    id: 'getThing',
    method: 'GET',
    path: '/things/{thingId}',
    group: 'tickets',
    summary: 'test',
    tenancy: 'project',
    scope: 'tickets:read',
    params: { thingId: uuid },
    query: pageQuery(),
  }),
  createThing: defineRoute({
    id: 'createThing',
    method: 'POST',
    path: '/things',
    group: 'tickets',
    summary: 'test',
    tenancy: 'project',
    scope: 'tickets:write',
    body: v.strictObject({ name: v.pipe(v.string(), v.minLength(1)) }),
  }),
  crash: defineRoute({
    id: 'crash',
    method: 'GET',
    path: '/crash',
    group: 'tickets',
    summary: 'test',
    tenancy: 'project',
  }),
  throttled: defineRoute({
    id: 'throttled',
    method: 'POST',
    path: '/throttled',
    group: 'tickets',
    summary: 'test',
    tenancy: 'project',
  }),
  slow: defineRoute({
    id: 'slow',
    method: 'GET',
    path: '/slow',
    group: 'tickets',
    summary: 'test',
    tenancy: 'project',
  }),
  gated: defineRoute({
    id: 'gated',
    method: 'POST',
    path: '/gated',
    group: 'tickets',
    summary: 'test',
    tenancy: 'project',
    plan: { minimum: 'pro', feature: 'Gizmos' },
    body: v.strictObject({ name: v.string() }),
  }),
};

const handler = createGroupHandler(routes, {
  getThing: async ({ ctx, params, query }) => {
    const { data } = await Thing.get({ projectId: ctx.projectId, env: ctx.env, thingId: params.thingId }).go();
    if (!data) throw errors.notFound('Thing');
    return { ...data, project: ctx.projectSlug, page: query.page, limit: query.limit };
  },
  createThing: async ({ ctx, body }) => {
    const { data } = await Thing.create({
      projectId: ctx.projectId,
      env: ctx.env,
      thingId: randomUUID(),
      name: body.name,
    }).go();
    return { ...data, env: ctx.env };
  },
  crash: () => {
    throw new Error('secret internals at /var/task/index.js:1');
  },
  throttled: () => {
    // What the SDK throws once its own retries are spent: the AWS error, as ElectroDB wraps it.
    const aws = Object.assign(new Error('Rate of requests exceeds the allowed throughput at /var/task'), {
      name: 'ProvisionedThroughputExceededException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    throw Object.assign(new Error('Error thrown by DynamoDB client'), { name: 'ElectroError', cause: aws });
  },
  slow: () => new Promise(() => undefined),
  gated: async ({ body }) => ({ name: body.name }),
});

const get = (key: string | undefined, thingId: string, extra: Partial<Parameters<typeof apiEvent>[0]> = {}) =>
  invoke(
    handler,
    apiEvent({
      routeKey: 'GET /api/v1/things/{thingId}',
      path: `/api/v1/things/${thingId}`,
      key,
      pathParameters: { thingId },
      ...extra,
    }),
  );
const create = (key: string, name: unknown, extra: Partial<Parameters<typeof apiEvent>[0]> = {}) =>
  invoke(
    handler,
    apiEvent({
      routeKey: 'POST /api/v1/things',
      path: '/api/v1/things',
      key,
      body: JSON.stringify({ name }),
      ...extra,
    }),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('authentication', () => {
  it('answers 401 auth.unauthorized for a missing, malformed, unknown or revoked key', async () => {
    const t = await createTenant();
    const id = randomUUID();
    const unknown = 'sk_live_' + 'A'.repeat(43);
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer nope' },
      { authorization: `Bearer ${unknown}` },
    ]) {
      const res = await get(undefined, id, { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('auth.unauthorized');
    }
    const doomed = await createTenant();
    const { keyId } = (await resolvePrincipal(doomed.liveKey))!;
    await revokeApiKey(keyId);
    clearPrincipalCache();
    expect((await create(doomed.liveKey, 'x')).status).toBe(401);
    expect((await get(t.liveKey, id)).status).toBe(404);
  });

  it('stops honouring a revoked key once the cache entry ages out (well within 60 s)', async () => {
    const t = await createTenant();
    const now = Date.now();
    const principal = await resolvePrincipal(t.liveKey, now);
    expect(principal).not.toBeNull();
    await revokeApiKey(principal!.keyId);
    expect(await resolvePrincipal(t.liveKey, now + 1_000)).not.toBeNull();
    expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(60_000);
    expect(await resolvePrincipal(t.liveKey, now + KEY_CACHE_TTL_MS + 1)).toBeNull();
  });
  it("records a key's last use when a Lambda loads it, not on every cached request", async () => {
    const t = await createTenant();
    const keys = async () => listApiKeys(t.accountId);
    expect((await keys()).map((k) => k.lastUsedAt)).toEqual([undefined, undefined]);
    const now = Date.now();
    const { keyId } = (await resolvePrincipal(t.liveKey, now))!;
    const lastUsed = async () => (await keys()).find((k) => k.keyId === keyId)!.lastUsedAt;
    const first = await lastUsed();
    expect(Math.abs(Date.parse(first!) - Date.now())).toBeLessThan(60_000);
    expect((await keys()).filter((k) => k.lastUsedAt).length).toBe(1);
    // Within the cache period the key is not read again, so nothing is written.
    await new Promise((r) => setTimeout(r, 5));
    await resolvePrincipal(t.liveKey, now + 1_000);
    expect(await lastUsed()).toBe(first);
    await resolvePrincipal(t.liveKey, now + KEY_CACHE_TTL_MS + 1);
    expect((await lastUsed())! > first!).toBe(true);
  });
});

describe('IP allowlist and scopes', () => {
  it('allows only listed IPv4 and IPv6 ranges, from the source IP and never X-Forwarded-For', async () => {
    const t = await createTenant();
    const key = await t.key({ allowIps: ['10.0.0.0/8', '2001:db8::/32'] });
    expect((await create(key, 'a', { sourceIp: '10.1.2.3' })).status).toBe(200);
    expect((await create(key, 'a', { sourceIp: '2001:db8::1' })).status).toBe(200);
    expect((await create(key, 'a', { sourceIp: '::ffff:10.9.9.9' })).status).toBe(200);
    for (const sourceIp of ['192.168.1.1', '2001:db9::1']) {
      const res = await create(key, 'a', { sourceIp, headers: { 'x-forwarded-for': '10.1.2.3' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('auth.forbidden');
    }
  });

  it('refuses a key lacking the route scope, naming the scope; an empty scope list has full access', async () => {
    const t = await createTenant();
    const readOnly = await t.key({ scopes: ['tickets:read'] });
    const res = await create(readOnly, 'a');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'auth.forbidden', message: expect.stringContaining('tickets:write') });
    expect((await create(t.liveKey, 'a')).status).toBe(200);
  });
});

describe('project and environment', () => {
  it('needs a project when the key reaches several, and never guesses', async () => {
    const t = await createTenant({ projects: ['alpha', 'beta'] });
    const res = await create(t.liveKey, 'x');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('project.required');
    expect(res.body.error.details.projects.map((p: { slug: string }) => p.slug)).toEqual(['alpha', 'beta']);

    const bySlug = await create(t.liveKey, 'x', { headers: { 'Service-Project': 'beta' } });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.projectId).toBe(t.projects.beta!.id);
    const byIdQuery = await create(t.liveKey, 'x', { query: { project: t.projects.alpha!.id } });
    expect(byIdQuery.body.projectId).toBe(t.projects.alpha!.id);
    // An id in capitals is the same project (UUIDs are case-insensitive).
    const upper = await create(t.liveKey, 'x', { headers: { 'Service-Project': t.projects.beta!.id.toUpperCase() } });
    expect(upper.body.projectId).toBe(t.projects.beta!.id);

    const single = await t.key({ projects: ['alpha'] });
    expect((await create(single, 'x')).body.projectId).toBe(t.projects.alpha!.id);
    const forbidden = await create(single, 'x', { headers: { 'Service-Project': 'beta' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('project.forbidden');
    const long = await create(single, 'x', { headers: { 'Service-Project': 'b'.repeat(5000) } });
    expect(long.status).toBe(403);
    expect(long.body.error.message.length).toBeLessThan(200);
  });

  it('lets a live key downgrade to sandbox but never a sandbox key up to live', async () => {
    const t = await createTenant();
    expect((await create(t.liveKey, 'x', { headers: { 'Service-Environment': 'sandbox' } })).body.env).toBe('sandbox');
    expect((await create(t.liveKey, 'x', { query: { environment: 'sandbox' } })).body.env).toBe('sandbox');
    expect((await create(t.sandboxKey, 'x')).body.env).toBe('sandbox');
    const up = await create(t.sandboxKey, 'x', { headers: { 'Service-Environment': 'live' } });
    expect(up.status).toBe(403);
    expect(up.body.error.code).toBe('environment.forbidden');
    expect((await create(t.liveKey, 'x', { headers: { 'Service-Environment': 'staging' } })).status).toBe(422);
  });

  it('keeps records of another project or environment out of reach (404)', async () => {
    const t = await createTenant({ projects: ['alpha', 'beta'] });
    const made = await create(t.liveKey, 'x', { headers: { 'Service-Project': 'alpha' } });
    const id = made.body.thingId as string;
    expect((await get(t.liveKey, id, { headers: { 'Service-Project': 'alpha' } })).status).toBe(200);
    const otherProject = await get(t.liveKey, id, { headers: { 'Service-Project': 'beta' } });
    expect(otherProject.status).toBe(404);
    expect(otherProject.body.error.code).toBe('not_found');
    expect(
      (await get(t.liveKey, id, { headers: { 'Service-Project': 'alpha', 'Service-Environment': 'sandbox' } })).status,
    ).toBe(404);
    const other = await createTenant({ projects: ['alpha'] });
    expect((await get(other.liveKey, id)).status).toBe(404);
  });
});

describe('rate limit', () => {
  it('answers the 101st request in a minute with 429 rate_limit.exceeded and Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:05Z'));
    const t = await createTenant();
    const id = randomUUID();
    for (let i = 1; i <= 100; i++) {
      const res = await get(t.liveKey, id);
      expect(res.status).toBe(404);
      expect(res.headers['X-RateLimit-Remaining']).toBe(String(100 - i));
    }
    const over = await get(t.liveKey, id);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limit.exceeded');
    expect(over.headers['Retry-After']).toBe('55');
    expect(over.headers['X-RateLimit-Limit']).toBe('100');
    // Another key of the same account has its own budget; the next minute starts afresh.
    expect((await get(await t.key(), id)).status).toBe(404);
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect((await get(t.liveKey, id)).status).toBe(404);
  });

  it('counts every request of a valid key, refused ones included, and always sends the headers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:20:00Z'));
    const t = await createTenant({ projects: ['alpha', 'beta'] });
    const key = await t.key({ rateLimit: 4, scopes: ['tickets:read'], projects: ['alpha'] });
    const refused = [
      await create(key, 'a'), // scope
      await create(key, 'a', { headers: { 'Service-Project': 'beta' } }), // project
      await get(key, randomUUID(), { headers: { 'Service-Environment': 'staging' } }), // environment
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 422]);
    expect(refused.map((r) => r.headers['X-RateLimit-Remaining'])).toEqual(['3', '2', '1']);
    expect((await get(key, randomUUID())).status).toBe(404);
    const over = await get(key, randomUUID());
    expect(over.status).toBe(429);
    expect(over.headers['X-RateLimit-Limit']).toBe('4');
  });

  it("starts a key's count beside its account read when it reads the key, and counts each request once", async () => {
    const t = await createTenant();
    const id = randomUUID();
    const log: string[] = [];
    const name = 'requestOrder';
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const key = JSON.stringify((args.input as { Key?: unknown }).Key ?? '');
        const what = `${context.commandName}${key.includes('ratewindow') ? ' window' : ''}`;
        log.push(`start ${what}`);
        try {
          return await next(args);
        } finally {
          log.push(`end ${what}`);
        }
      },
      { step: 'initialize', name },
    );
    try {
      clearPrincipalCache();
      const cold = await get(t.liveKey, id);
      expect(cold.status).toBe(404);
      expect(cold.headers['X-RateLimit-Remaining']).toBe('99');
      // Key read, then the count with the account's Query (not after it), then the route's own read.
      expect(log.indexOf('start UpdateItemCommand window')).toBeGreaterThan(log.indexOf('end GetItemCommand'));
      expect(log.indexOf('start UpdateItemCommand window')).toBeLessThan(log.indexOf('end QueryCommand'));
      expect(log.filter((l) => l === 'start UpdateItemCommand window')).toHaveLength(1);
      log.length = 0;
      const warm = await get(t.liveKey, id);
      expect(warm.headers['X-RateLimit-Remaining']).toBe('98');
      expect(log.filter((l) => l.startsWith('start'))).not.toContain('start QueryCommand');
    } finally {
      dynamo.middlewareStack.remove(name);
    }
  });

  it('honours a per-key override', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:10:00Z'));
    const t = await createTenant();
    const key = await t.key({ rateLimit: 2 });
    expect((await create(key, 'a')).status).toBe(200);
    expect((await create(key, 'a')).status).toBe(200);
    expect((await create(key, 'a')).status).toBe(429);
  });
});

describe('plan-gated routes', () => {
  it('refuse lower plans with 403 plan.upgrade_required before reading the body', async () => {
    const gated = (key: string, body: string) =>
      invoke(handler, apiEvent({ routeKey: 'POST /api/v1/gated', path: '/api/v1/gated', key, body }));
    const starter = await createTenant({ plan: 'starter' });
    for (const body of ['{}', '{nope', JSON.stringify({ name: 'x' })]) {
      const res = await gated(starter.liveKey, body);
      expect(res.status, body).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'plan.upgrade_required',
        message: expect.stringContaining('Gizmos'),
      });
    }
    const pro = await createTenant({ plan: 'pro' });
    expect((await gated(pro.liveKey, '{}')).status).toBe(422);
    expect((await gated(pro.liveKey, JSON.stringify({ name: 'x' }))).body).toEqual({ name: 'x' });
  });
});

describe('validation and failures', () => {
  it('answers 422 validation.failed naming each bad field', async () => {
    const t = await createTenant();
    const id = randomUUID();
    for (const query of <Record<string, string>[]>[{ limit: '0' }, { limit: '101' }, { page: '0' }, { page: 'two' }]) {
      const res = await get(t.liveKey, id, { query });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
      expect(res.body.error.details.fields[0]).toMatchObject({ field: Object.keys(query)[0], in: 'query' });
    }
    const made = await create(t.liveKey, 'ok');
    const ok = await get(t.liveKey, made.body.thingId);
    expect(ok.body).toMatchObject({ page: 1, limit: 25 });
    // An account's data is never cached or sniffed, on a success or an error.
    for (const res of [ok, await get(t.liveKey, id, { query: { limit: '0' } })])
      expect([res.headers['cache-control'], res.headers['x-content-type-options']]).toEqual(['no-store', 'nosniff']);

    const bad = await create(t.liveKey, '');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields).toEqual([expect.objectContaining({ field: 'name', in: 'body' })]);
    const unknownField = await invoke(
      handler,
      apiEvent({
        routeKey: 'POST /api/v1/things',
        path: '/api/v1/things',
        key: t.liveKey,
        body: JSON.stringify({ name: 'a', extra: 1 }),
      }),
    );
    expect(unknownField.status).toBe(422);
    const notJson = await invoke(
      handler,
      apiEvent({ routeKey: 'POST /api/v1/things', path: '/api/v1/things', key: t.liveKey, body: '{nope' }),
    );
    expect(notJson.status).toBe(422);
    expect(notJson.body.error.code).toBe('validation.failed');
    // JSON can spell a lone surrogate, which no field of any route can store, mail or show: refused by name.
    const post = (body: string) =>
      invoke(handler, apiEvent({ routeKey: 'POST /api/v1/things', path: '/api/v1/things', key: t.liveKey, body }));
    for (const [body, field] of [
      ['{"name":"a\\ud800b"}', 'name'],
      ['{"name":"\\uDC00"}', 'name'],
      ['{"name":"ok","x":{"deep":["fine","\\udbff"]}}', 'x.deep.1'],
      ['{"name":"ok","k\\ud83d":1}', 'k\ufffd'],
    ]) {
      const res = await post(body!);
      expect([res.status, res.body.error.details.fields[0].field], body).toEqual([422, field]);
    }
    // A pair is one character, and an escaped backslash before `u` is no escape at all.
    expect((await post('{"name":"smile \\ud83d\\ude00"}')).status).toBe(200);
    expect((await post('{"name":"C:\\\\udc00"}')).status).toBe(200);
  });

  it('treats a path id that is not a UUID as not found', async () => {
    const t = await createTenant();
    const res = await get(t.liveKey, 'not-a-uuid');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('answers an unexpected failure with 500 internal and no internals', async () => {
    const t = await createTenant();
    const res = await invoke(
      handler,
      apiEvent({ routeKey: 'GET /api/v1/crash', path: '/api/v1/crash', key: t.liveKey }),
    );
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 'internal', message: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toContain('/var/task');
  });

  it('answers a dependency that throttled or failed with 503 service.unavailable and Retry-After, logging the cause', async () => {
    const t = await createTenant();
    const lines = captureLogs();
    const res = await invoke(
      handler,
      apiEvent({ routeKey: 'POST /api/v1/throttled', path: '/api/v1/throttled', key: t.liveKey }),
    );
    lines.stop();
    expect(res.status).toBe(503);
    expect(res.headers['Retry-After']).toBe('2');
    expect(res.body).toEqual({
      error: { code: 'service.unavailable', message: expect.any(String), details: { retryAfter: 2 } },
    });
    expect(JSON.stringify(res.body)).not.toContain('/var/task');
    const error = lines.entries.find((e) => e.level === 'ERROR');
    expect(error).toMatchObject({ code: 'service.unavailable', route: 'throttled', requestId: 'test' });
    expect(JSON.stringify(error)).toContain('ProvisionedThroughputExceededException');
  });

  it('answers a route that runs out of time with 503 before the function times out', async () => {
    const t = await createTenant();
    const started = Date.now();
    const result = await handler(
      apiEvent({ routeKey: 'GET /api/v1/slow', path: '/api/v1/slow', key: t.liveKey }),
      lambdaContext('test', 1_500),
    );
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body ?? '{}').error.code).toBe('service.unavailable');
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe('request ids and log lines', () => {
  it('puts the request id on every answer, and on every log line of the request with its route, tenant and status', async () => {
    const t = await createTenant();
    const lines = captureLogs();
    const ok = await handler(
      {
        ...apiEvent({ routeKey: 'POST /api/v1/things', path: '/api/v1/things', key: t.liveKey, body: '{"name":"a"}' }),
        requestContext: {
          ...apiEvent({ routeKey: 'POST /api/v1/things', path: '/api/v1/things' }).requestContext,
          requestId: 'req-ok-1',
        },
      },
      lambdaContext('test'),
    );
    const refused = await handler(
      {
        ...apiEvent({ routeKey: 'GET /api/v1/crash', path: '/api/v1/crash', key: 'sk_live_nope' }),
        requestContext: {
          ...apiEvent({ routeKey: 'GET /api/v1/crash', path: '/api/v1/crash' }).requestContext,
          requestId: 'req-401-1',
        },
      },
      lambdaContext('test'),
    );
    lines.stop();
    expect(ok.statusCode).toBe(200);
    expect(ok.headers?.['X-Request-Id']).toBe('req-ok-1');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers?.['X-Request-Id']).toBe('req-401-1');
    const projectId = t.projects.main!.id;
    expect(lines.entries.filter((e) => e.requestId === 'req-ok-1')).toEqual([
      expect.objectContaining({
        message: 'request',
        route: 'createThing',
        account: t.accountId,
        project: projectId,
        env: 'live',
        status: 200,
      }),
    ]);
    expect(lines.entries.filter((e) => e.requestId === 'req-401-1')).toEqual([
      expect.objectContaining({ message: 'request', route: 'crash', status: 401, code: 'auth.unauthorized' }),
    ]);
  });
});

/** Every JSON log line written until `stop()`, at INFO and above. */
function captureLogs() {
  const entries: Record<string, unknown>[] = [];
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'INFO';
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) entries.push(JSON.parse(line));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  return {
    entries,
    stop() {
      out.mockRestore();
      err.mockRestore();
      process.env.LOG_LEVEL = level;
    },
  };
}

import { EVENT_NAMES } from '@helpdesk/core/areas/webhooks/catalog';
import { WebhookEndpoint } from '@helpdesk/core/areas/webhooks/entities';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp();
// Every type of the catalog, the spec's seven among them.
const SPEC_EVENTS = [
  'ticket.created',
  'ticket.resolved',
  'message.received',
  'feedback.submitted',
  'email.bounced',
  'customer.created',
  'customer.updated',
];
const ALL_EVENTS = expect.arrayContaining(SPEC_EVENTS);
const HOOK = 'http://127.0.0.1:9/hook';

const allowPrivate = process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS;
afterEach(() => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: allowPrivate });
});

describe('POST /webhooks', () => {
  it('registers an endpoint for every event and shows the secret only in this response', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: HOOK } });
    expect(res.status).toBe(200);
    expect(res.body.events.length).toBeGreaterThanOrEqual(25);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: HOOK,
      events: ALL_EVENTS,
      format: 'json',
      description: null,
      rateLimitPerSecond: null,
      enabled: true,
      secretFingerprint: expect.stringMatching(/^[0-9a-f]{12}$/),
      previousSecrets: [],
      failingSince: null,
      disabledReason: null,
      createdAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });

    const list = await app.call('GET', '/webhooks', { key: t.liveKey });
    expect(list.status).toBe(200);
    const { secret: _secret, ...shown } = res.body;
    expect(list.body).toEqual({ webhooks: [shown] });
    expect(list.text).not.toContain(res.body.secret);

    const { data: stored } = await WebhookEndpoint.get({
      projectId: t.projects.main!.id,
      env: 'live',
      webhookId: res.body.id,
    }).go();
    expect(JSON.stringify(stored)).not.toContain(res.body.secret.slice(6));
  });

  it('takes chosen events, the chat format and a description', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: HOOK, events: ['ticket.resolved', 'ticket.created'], format: 'chat', description: 'Team channel' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      events: ['ticket.resolved', 'ticket.created'],
      format: 'chat',
      description: 'Team channel',
    });
  });

  it.each([
    [{ url: HOOK, events: ['ticket.exploded'] }, 'events.0'],
    [{ url: HOOK, events: [] }, 'events'],
    [{ url: HOOK, format: 'xml' }, 'format'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'ftp://127.0.0.1/hook' }, 'url'],
    [{ url: 'http://user:pw@127.0.0.1/hook' }, 'url'],
    // The endpoint called must be the one stored: nothing a URL parser would encode, read its own way or
    // cannot reach (an empty user part, a space, a backslash before an @, port 0, a host not in punycode).
    [{ url: 'http://:@127.0.0.1/hook' }, 'url'],
    [{ url: 'http://127.0.0.1:3799/a b' }, 'url'],
    [{ url: 'http://127.0.0.1\\@evil.example/' }, 'url'],
    [{ url: 'http://127.0.0.1:0/hook' }, 'url'],
    [{ url: 'https://b\u00fccher.example/hook' }, 'url'],
    [{ url: HOOK, secret: 'mine' }, 'secret'],
    // A URL parser drops line breaks, so the stored URL would not be the one called; a label holds none.
    [{ url: `${HOOK}\r\nX-Injected: 1` }, 'url'],
    [{ url: HOOK, description: 'a\u0000b\r\nc' }, 'description'],
    [{}, 'url'],
  ])('rejects %j with 422 naming %s', async (body, field) => {
    const t = await createTenant();
    const res = await app.call('POST', '/webhooks', { key: t.liveKey, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation.failed');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('in a deployed-stage configuration refuses http and private, loopback and link-local targets', async () => {
    const t = await createTenant();
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false' });
    for (const url of [
      HOOK,
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.0.0.5/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fd12::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://100.64.0.1/hook',
    ]) {
      const res = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url } });
      expect(res.status, url).toBe(422);
      expect(res.body.error.code).toBe('webhook.url_not_allowed');
    }
    const ok = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: 'https://93.184.216.34/hook' } });
    expect(ok.status).toBe(200);
    expect((await app.call('GET', '/webhooks', { key: t.liveKey })).body.webhooks).toHaveLength(1);
  });

  it('needs the webhooks:manage scope', async () => {
    const t = await createTenant();
    const key = await t.key({ scopes: ['tickets:read'] });
    const res = await app.call('POST', '/webhooks', { key, body: { url: HOOK } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth.forbidden');
    expect(res.body.error.message).toContain('webhooks:manage');
    expect((await app.call('GET', '/webhooks', { key: await t.key({ scopes: ['webhooks:manage'] }) })).status).toBe(
      200,
    );
  });
});

describe('PATCH, DELETE, rotate-secret', () => {
  it('updates events, format, description and enabled', async () => {
    const t = await createTenant();
    const { body: created } = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: HOOK, description: 'old' },
    });
    const res = await app.call('PATCH', `/webhooks/${created.id}`, {
      key: t.liveKey,
      body: { events: ['customer.created'], format: 'chat', description: null, enabled: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...created,
      secret: undefined,
      events: ['customer.created'],
      format: 'chat',
      description: null,
      enabled: false,
    });
    expect(res.body).not.toHaveProperty('secret');

    // Nothing to change is a mistake, as on every PATCH; the endpoint stays as it was.
    const empty = await app.call('PATCH', `/webhooks/${created.id}`, { key: t.liveKey, body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe('validation.failed');
    const listed = (await app.call('GET', '/webhooks', { key: t.liveKey })).body.webhooks;
    expect(listed.find((w: { id: string }) => w.id === created.id)).toEqual(res.body);
    const back = await app.call('PATCH', `/webhooks/${created.id}`, {
      key: t.liveKey,
      body: { events: [...EVENT_NAMES], enabled: true },
    });
    expect(back.body).toMatchObject({ events: [...EVENT_NAMES], enabled: true, format: 'chat' });
    // Wildcards by prefix: any prefix of a catalog type; others are refused.
    const prefixed = await app.call('PATCH', `/webhooks/${created.id}`, {
      key: t.liveKey,
      body: { events: ['email.*', 'webhook.endpoint.*', 'ticket.created'] },
    });
    expect(prefixed.body.events).toEqual(['email.*', 'webhook.endpoint.*', 'ticket.created']);
    for (const events of [['nope.*'], ['email.sent.*'], ['*'], ['email.unknown']]) {
      const refused = await app.call('PATCH', `/webhooks/${created.id}`, { key: t.liveKey, body: { events } });
      expect(refused.status, JSON.stringify(events)).toBe(422);
    }
    const bad = await app.call('PATCH', `/webhooks/${created.id}`, {
      key: t.liveKey,
      body: { url: 'http://127.0.0.1:1/x' },
    });
    expect(bad.status).toBe(422);
  });

  it('deletes an endpoint', async () => {
    const t = await createTenant();
    const { body: created } = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: HOOK } });
    const res = await app.call('DELETE', `/webhooks/${created.id}`, { key: t.liveKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: created.id });
    expect((await app.call('GET', '/webhooks', { key: t.liveKey })).body.webhooks).toEqual([]);
    expect((await app.call('DELETE', `/webhooks/${created.id}`, { key: t.liveKey })).status).toBe(404);
  });

  it('rotates the secret, answering the new one once', async () => {
    const t = await createTenant();
    const { body: created } = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: HOOK } });
    const res = await app.call('POST', `/webhooks/${created.id}/rotate-secret`, { key: t.liveKey });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.id);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(created.secret);
  });
});

describe('tenancy', () => {
  const routes = (id: string): [string, string, unknown?][] => [
    ['PATCH', `/webhooks/${id}`, { enabled: false }],
    ['GET', `/webhooks/${id}/deliveries`],
    ['POST', `/webhooks/${id}/test`, {}],
    ['POST', `/webhooks/${id}/rotate-secret`],
    ['DELETE', `/webhooks/${id}`],
  ];

  it("answers 404 for another project's endpoint, another environment's, an unknown id and a malformed id", async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const { body: created } = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      headers: { 'Service-Project': 'one' },
      body: { url: HOOK },
    });
    expect(created.id).toBeDefined();
    const other = await createTenant();
    const attempts: { key: string; headers?: Record<string, string>; id: string }[] = [
      { key: t.liveKey, headers: { 'Service-Project': 'two' }, id: created.id },
      { key: t.liveKey, headers: { 'Service-Project': 'one', 'Service-Environment': 'sandbox' }, id: created.id },
      { key: t.sandboxKey, headers: { 'Service-Project': 'one' }, id: created.id },
      { key: other.liveKey, id: created.id },
      { key: t.liveKey, headers: { 'Service-Project': 'one' }, id: '7d7f4b5e-0000-4000-8000-000000000000' },
      { key: t.liveKey, headers: { 'Service-Project': 'one' }, id: 'not-a-uuid' },
    ];
    for (const a of attempts) {
      for (const [method, path, body] of routes(a.id)) {
        const res = await app.call(method, path, { key: a.key, headers: a.headers, body });
        expect(res.status, `${method} ${path} ${JSON.stringify(a.headers)}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
    }
    const lists = await Promise.all([
      app.call('GET', '/webhooks', { key: t.liveKey, headers: { 'Service-Project': 'two' } }),
      app.call('GET', '/webhooks', { key: t.sandboxKey, headers: { 'Service-Project': 'one' } }),
      app.call('GET', '/webhooks', { key: t.liveKey, headers: { 'Service-Project': 'one' } }),
    ]);
    expect(lists.map((l) => l.body.webhooks.length)).toEqual([0, 0, 1]);
    // Untouched by every refused call above.
    expect(lists[2]!.body.webhooks[0].enabled).toBe(true);
  });
});

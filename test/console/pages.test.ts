import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';
import { ConsoleClient, mailsTo } from './helpers.js';

const address = (p: string) => `${p}-${randomBytes(5).toString('hex')}@example.com`;

describe('console pages over HTTP: roles and tenancy', () => {
  let app: TestApp;
  let tenant: TenantFixture;
  let other: TenantFixture;
  let admin: ConsoleClient;
  let agent: ConsoleClient;
  let stranger: ConsoleClient;
  let agentId: string;
  let delivered: number;

  beforeAll(async () => {
    app = await startTestApp();
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    const [a, b, c] = await Promise.all([
      tenant.member({ email: address('admin'), name: 'Ada Admin', role: 'admin' }),
      tenant.member({ email: address('agent'), name: 'Andy Agent', role: 'agent' }),
      other.member({ email: address('other'), name: 'Olga Other', role: 'admin' }),
    ]);
    [admin, agent, stranger] = await Promise.all([
      new ConsoleClient(app).signIn(a.email),
      new ConsoleClient(app).signIn(b.email),
      new ConsoleClient(app).signIn(c.email),
    ]);
    agentId = b.memberId;
    ids = await seedData();
    // The seeded ticket may reach the endpoint registered beside it; nothing else may, until the test action.
    delivered = receiver.requests.length;
  });

  let ids: { emailId: string; webhookId: string; issueId: string; ticketId: string; customer: string };
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  /** One of each record in the tenant's live data, made through the API. */
  async function seedData() {
    const key = tenant.liveKey;
    receiver = await startReceiver();
    const customer = address('customer');
    const made = await Promise.all([
      app.call('POST', '/emails/send', {
        key,
        body: { to: address('to'), subject: 'Hello <b>there</b>', body: 'Plain *body*' },
      }),
      app.call('POST', '/webhooks', {
        key,
        body: { url: receiver.url, events: ['ticket.created', 'ticket.resolved'] },
      }),
      app.call('POST', '/tickets', {
        key,
        body: { subject: 'Cannot log in', body: 'Password refused.', customer: { email: customer, name: 'Cleo' } },
      }),
      app.call('POST', '/logs', {
        key,
        body: { events: [{ level: 'error', message: 'Payment provider timed out', scope: 'billing' }] },
      }),
      app.call('POST', '/articles', { key, body: { title: 'Resetting your password', body: 'Use the link.' } }),
    ]);
    for (const res of made) expect(res.status, res.text).toBe(200);
    const [email, hook, ticket] = made;
    await app.drain();
    const issues = await app.call('GET', '/log-issues', { key });
    expect(issues.body.issues).toHaveLength(1);
    return {
      emailId: email!.body.id,
      webhookId: hook!.body.id,
      ticketId: ticket!.body.id,
      issueId: issues.body.issues[0].id,
      customer,
    };
  }

  const idRoutes = () =>
    [
      ['GET', `/console/emails/${ids.emailId}`],
      ['GET', `/console/webhooks/${ids.webhookId}`],
      ['POST', `/console/webhooks/${ids.webhookId}/test`],
      ['POST', `/console/webhooks/${ids.webhookId}/rotate`],
      ['POST', `/console/webhooks/${ids.webhookId}/recover`],
      ['GET', `/console/issues/${ids.issueId}`],
      ['POST', `/console/issues/${ids.issueId}/status`],
      ['POST', `/console/issues/${ids.issueId}/snooze`],
      ['GET', `/console/tickets/${ids.ticketId}`],
      ['POST', `/console/tickets/${ids.ticketId}/messages`],
      ['POST', `/console/tickets/${ids.ticketId}/update`],
      ['POST', `/console/tickets/${ids.ticketId}/merge`],
      ['POST', `/console/tickets/${ids.ticketId}/unmerge`],
    ] as const;
  const form = {
    status: 'resolved',
    body: 'hello',
    visibility: 'public',
    event: 'ticket.created',
    priority: 'high',
    since: '2026-01-01T00:00',
    into: '1',
    for: '1 hour',
  };

  it('answers 404 to another account for every id route, and changes nothing', async () => {
    for (const [method, path] of idRoutes()) {
      const res = method === 'GET' ? await stranger.get(path) : await stranger.post(path, form);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // The owner sees the records untouched by the attempts.
    const ticket = await admin.get(`/console/tickets/${ids.ticketId}`);
    expect(ticket.status).toBe(200);
    expect(ticket.text).not.toContain('hello');
    expect((await admin.get(`/console/issues/${ids.issueId}`)).text).toMatch(/<span class="badge">open<\/span>/);
    expect(receiver.requests).toHaveLength(delivered);
  });

  it('answers 404 for a live record while the member is in sandbox', async () => {
    const sandbox = await new ConsoleClient(app).signIn(
      (await tenant.member({ email: address('sbx'), role: 'admin' })).email,
    );
    expect(
      (await sandbox.post('/console/switch', { projectId: tenant.projects.main!.id, env: 'sandbox' })).status,
    ).toBe(303);
    for (const [_method, path] of idRoutes().filter(([m]) => m === 'GET')) {
      expect((await sandbox.get(path)).status, path).toBe(404);
    }
    expect((await sandbox.get('/console/tickets')).text).toContain('Sandbox: test data');
  });

  it('refuses every id route POST without the CSRF token', async () => {
    for (const [method, path] of idRoutes().filter(([m]) => m === 'POST')) {
      expect((await admin.request(method, path, form)).status, path).toBe(403);
    }
    expect(receiver.requests).toHaveLength(delivered);
  });

  it('shows the email log and a message with its HTML in a sandboxed frame', async () => {
    const list = await admin.get('/console/emails?status=sent');
    expect(list.text).toContain(`/console/emails/${ids.emailId}`);
    expect((await admin.get('/console/emails?status=failed')).text).not.toContain(ids.emailId);
    expect((await admin.get('/console/emails?status=nonsense')).status).toBe(422);
    const detail = await admin.get(`/console/emails/${ids.emailId}`);
    expect(detail.text).toContain('Hello &lt;b&gt;there&lt;/b&gt;');
    expect(detail.text).toContain('<h2>Events</h2>');
    // A live send shows what SES was given, as a sandbox capture shows its rendered message.
    expect(detail.text).toContain('<iframe title="Rendered HTML of the email" sandbox=""');
    expect(detail.text).toContain('&lt;em&gt;body&lt;/em&gt;');
    expect(detail.text).toMatch(/<pre>[^<]*Plain body/);
  });

  it('sends a webhook test and lists its delivery; rotating shows the new secret once', async () => {
    const before = receiver.requests.length;
    expect((await admin.post(`/console/webhooks/${ids.webhookId}/test`, { event: 'ticket.resolved' })).status).toBe(
      303,
    );
    await app.drain();
    expect(receiver.requests.slice(before).map((r) => r.json.event)).toEqual(['ticket.resolved']);
    const page = await admin.get(`/console/webhooks/${ids.webhookId}`);
    expect(page.text).toMatch(/<tr class="delivery"><td>[^<]+<\/td><td>ticket.resolved<\/td><td>1<\/td><td>200<\/td>/);
    const rotated = await admin.post(`/console/webhooks/${ids.webhookId}/rotate`);
    const secret = /id="new-secret">([^<]+)</.exec(rotated.text)![1]!;
    const after = await admin.get(`/console/webhooks/${ids.webhookId}`);
    expect(after.text).not.toContain(secret);
    // Both secrets sign through the overlap: the page names them by fingerprint, the old one with its end.
    expect(after.text).toMatch(/[0-9a-f]{12} \(current\), [0-9a-f]{12} \(until /);
    const recovered = await admin.post(`/console/webhooks/${ids.webhookId}/recover`, { since: '2026-01-01T00:00' });
    expect(recovered.status).toBe(200);
    expect(recovered.text).toContain('0 failed deliveries queued again.');
    expect((await admin.post(`/console/webhooks/${ids.webhookId}/recover`, { since: 'yesterday' })).status).toBe(422);
  });

  it('lets an agent answer a ticket (mailed), add an internal note (not mailed) and change its properties', async () => {
    const t = `/console/tickets/${ids.ticketId}`;
    expect((await agent.post(`${t}/messages`, { body: 'Try resetting it.', visibility: 'public' })).status).toBe(303);
    expect(
      (await agent.post(`${t}/messages`, { body: 'Customer seems confused', visibility: 'internal' })).status,
    ).toBe(303);
    expect((await agent.post(`${t}/update`, { status: 'pending', priority: 'high', assignedTo: agentId })).status).toBe(
      303,
    );
    await app.drain();
    const page = await agent.get(t);
    expect(page.text).toMatch(/class="msg staff internal"[^>]*>[\s\S]*Customer seems confused/);
    expect(page.text).toMatch(/<option value="pending" selected>/);
    expect(page.text).toMatch(/<option value="high" selected>/);
    const mails = await mailsTo(ids.customer);
    expect(mails.map((m) => m.body.text ?? '').join('\n')).toContain('Try resetting it.');
    expect(mails.map((m) => m.body.text ?? '').join('\n')).not.toContain('confused');
    // What the API refuses, the console refuses: a note is never mailed for a mistyped or missing choice.
    for (const form of <Record<string, string>[]>[
      { body: 'Secret A', visibility: 'Internal' },
      { body: 'Secret B' },
      { body: 'x'.repeat(10_001), visibility: 'public' },
    ]) {
      expect((await agent.post(`${t}/messages`, form)).status).toBe(422);
    }
    const thread = await agent.get(t);
    expect(thread.text).not.toContain('Secret A');
    expect(thread.text).not.toContain('Secret B');
    const list = await agent.get('/console/tickets?status=pending&priority=high');
    expect(list.text).toContain(t);
    expect((await agent.get('/console/tickets?status=closed')).text).not.toContain(t);
  });

  it('merges a ticket into another by its number, shows where it went, and unmerges it', async () => {
    const made = await Promise.all(
      ['Printer jam', 'Printer jam again'].map((subject) =>
        app.call('POST', '/tickets', {
          key: tenant.liveKey,
          body: { subject, body: `${subject}.`, customer: { email: address('merge') } },
        }),
      ),
    );
    const [source, target] = made.map((r) => r.body as { id: string; number: number });
    const path = `/console/tickets/${source!.id}`;
    expect((await agent.get(path)).text).toContain('Merge into ticket #');
    expect((await agent.post(`${path}/merge`, { into: '999999' })).status).toBe(422);
    const merged = await agent.post(`${path}/merge`, { into: String(target!.number) });
    expect(merged.status).toBe(303);
    expect(merged.headers.get('location')).toBe(`/console/tickets/${target!.id}`);
    const onTarget = await agent.get(`/console/tickets/${target!.id}`);
    expect(onTarget.text).toContain('Printer jam.');
    expect(onTarget.text).toContain('from a merged ticket');
    const onSource = await agent.get(path);
    expect(onSource.text).toContain(`Merged into <a href="/console/tickets/${target!.id}">`);
    expect((await agent.post(`${path}/unmerge`, {})).status).toBe(303);
    expect((await agent.get(`/console/tickets/${target!.id}`)).text).not.toContain('from a merged ticket');
    expect((await agent.get(path)).text).toContain('Merge into ticket #');
  });

  it("shows a ticket's SLA clock and the metrics page's charts, and another account's metrics to nobody", async () => {
    const created = await app.call('POST', '/sla-policies', {
      key: tenant.liveKey,
      body: { name: 'Console', conditions: { priority: ['urgent'] }, targets: { firstReply: 45, resolution: 600 } },
    });
    expect(created.status, created.text).toBe(200);
    const made = await app.call('POST', '/tickets', {
      key: tenant.liveKey,
      body: { subject: 'Clock', body: 'Tick.', priority: 'urgent', customer: { email: address('clock') } },
    });
    await app.call('POST', `/tickets/${made.body.id}/messages`, { key: tenant.liveKey, body: { body: 'On it.' } });
    const page = await agent.get(`/console/tickets/${made.body.id}`);
    expect(page.text).toMatch(/<section class="card" aria-label="SLA">/);
    expect(page.text).toMatch(/First reply<\/th><td><span class="badge">achieved/);
    expect(page.text).toMatch(/Resolution<\/th><td><span class="badge">active/);
    const metrics = await agent.get('/console/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text.match(/<svg /g)).toHaveLength(3);
    for (const id of ['first-reply-title', 'resolution-title', 'breaches-title'])
      expect(metrics.text).toContain(`id="${id}"`);
    expect(metrics.text).toMatch(/SLA targets met: [1-9]/);
    expect((await stranger.get('/console/metrics')).text).toContain('SLA targets met: 0 of 0');
  });

  it('lists customers and articles for agents, and none of them to another account', async () => {
    expect((await agent.get('/console/customers')).text).toContain(ids.customer);
    expect((await agent.get('/console/articles?status=draft')).text).toContain('Resetting your password');
    expect((await agent.get('/console/articles?status=published')).text).not.toContain('Resetting your password');
    expect((await stranger.get('/console/customers')).text).not.toContain(ids.customer);
    expect((await stranger.get('/console/articles')).text).not.toContain('Resetting your password');
  });

  it('lists log issues by status and level and changes a status', async () => {
    expect((await agent.get('/console/issues?level=error')).text).toContain(`/console/issues/${ids.issueId}`);
    expect((await agent.get('/console/issues?level=fatal')).text).not.toContain(ids.issueId);
    expect((await agent.post(`/console/issues/${ids.issueId}/status`, { status: 'acknowledged' })).status).toBe(303);
    const page = await agent.get(`/console/issues/${ids.issueId}`);
    expect(page.text).toMatch(/<span class="badge">acknowledged<\/span>/);
    expect(page.text).toContain('Payment provider timed out');
  });

  it('charts an issue, snoozes its alerts, and lists rules, alerts and snoozes', async () => {
    const page = await agent.get(`/console/issues/${ids.issueId}`);
    expect(page.text).toContain('Events per hour, last 24 hours (UTC)');
    expect(page.text).toContain('Events per day, last 30 days (UTC)');
    // The chart is inline SVG, and the numbers follow as a table (the day's one event among them).
    expect(page.text).toMatch(/<svg viewBox="[^"]+" role="img"/);
    expect(page.text).not.toMatch(/<(script|img|link)\b/);
    expect(page.text).toMatch(/<td>\d{4}-\d{2}-\d{2}<\/td><td>1<\/td>/);
    expect((await agent.post(`/console/issues/${ids.issueId}/snooze`, { for: 'forever' })).status).toBe(422);
    expect((await agent.post(`/console/issues/${ids.issueId}/snooze`, { for: '8 hours' })).status).toBe(303);
    expect((await agent.get(`/console/issues/${ids.issueId}`)).text).toContain('Alerts are snoozed until');
    const made = await app.call('POST', '/log-alert-rules', {
      key: tenant.liveKey,
      body: {
        name: 'Console rule',
        trigger: { type: 'threshold', count: 3, windowMinutes: 10 },
        actions: { webhook: true },
      },
    });
    expect(made.status, made.text).toBe(200);
    const alerts = await agent.get('/console/alerts');
    expect(alerts.text).toContain('Console rule');
    expect(alerts.text).toContain('threshold: 3+ events in 10 min');
    expect(alerts.text).toContain(`/console/issues/${ids.issueId}`);
    // Another account sees none of it.
    const theirs = await stranger.get('/console/alerts');
    expect(theirs.text).not.toContain('Console rule');
    expect(theirs.text).not.toContain(ids.issueId);
    expect((await agent.post(`/console/issues/${ids.issueId}/snooze`, { for: 'off' })).status).toBe(303);
    expect((await agent.get('/console/alerts')).text).not.toContain(`/console/issues/${ids.issueId}`);
  });

  it('creates a key whose secret is shown once and works against the API, then revokes it', async () => {
    const page = await admin.post('/console/keys', { env: 'sandbox', rateLimit: '50', 'scope:tickets:read': 'on' });
    expect(page.status, page.text).toBe(200);
    const secret = /id="new-secret">([^<]+)</.exec(page.text)![1]!;
    expect(secret).toMatch(/^sk_sandbox_/);
    expect((await app.call('GET', '/tickets', { key: secret })).status).toBe(200);
    // Scope respected: the key cannot send mail.
    expect((await app.call('POST', '/emails/send', { key: secret, body: {} })).status).toBe(403);
    const list = await admin.get('/console/keys');
    expect(list.text).not.toContain(secret);
    expect(list.text).toContain('tickets:read');
    const keyId = new RegExp(`data-key-id="([^"]+)"><td><code>${secret.slice(0, 15)}`).exec(list.text)![1]!;
    // Another account's admin cannot revoke it (404) and does not see it.
    expect((await stranger.get('/console/keys')).text).not.toContain(keyId);
    expect((await stranger.post(`/console/keys/${keyId}/revoke`)).status).toBe(404);
    expect((await admin.post(`/console/keys/${keyId}/revoke`)).status).toBe(303);
    expect((await admin.get('/console/keys')).text).toMatch(new RegExp(`data-key-id="${keyId}">.*?revoked`, 's'));
  });

  it('refuses invalid key input with a page, not a key', async () => {
    const bad = await admin.post('/console/keys', { env: 'live', allowIps: 'not-an-ip' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('not-an-ip');
    expect(bad.text).not.toContain('id="new-secret"');
    // An unknown project or scope is refused: dropping it would widen the key to every project or all scopes.
    for (const form of [
      { env: 'live', [`project:${randomUUID()}`]: 'on' },
      { env: 'live', 'scope:admin:all': 'on' },
    ]) {
      const refused = await admin.post('/console/keys', form);
      expect(refused.status).toBe(422);
      expect(refused.text).not.toContain('id="new-secret"');
    }
  });

  it('keeps agents out of keys (and off the navigation)', async () => {
    const page = await agent.get('/console/keys');
    expect(page.status).toBe(403);
    expect(page.text).not.toContain('data-key-id');
    expect((await agent.post('/console/keys', { env: 'live' })).status).toBe(403);
    expect((await agent.get('/console')).text).not.toContain('href="/console/keys"');
    for (const path of [
      '/console/emails',
      '/console/webhooks',
      `/console/webhooks/${ids.webhookId}`,
      `/console/emails/${ids.emailId}`,
    ]) {
      expect((await agent.get(path)).status, path).toBe(403);
    }
    expect((await agent.post(`/console/webhooks/${ids.webhookId}/test`)).status).toBe(403);
    expect((await agent.get('/console/tickets')).status).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { checkLogAlerts } from '@helpdesk/core/areas/logs/alerts';
import { describe, expect, it, vi } from 'vitest';
import { mailsTo } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from '../tickets/event-spy.js';
import { customerEmail } from '../tickets/helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) =>
  (await import('../tickets/event-spy.js')).spiedRelay(original),
);

const app = await startTestApp();
const MINUTE = 60_000;

const call = (t: TenantFixture, method: string, path: string, body?: unknown, query?: Record<string, string>) =>
  app.call(method, path, { key: t.liveKey, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });

async function rule(t: TenantFixture, body: Record<string, unknown>) {
  const res = await call(t, 'POST', '/log-alert-rules', { name: 'Rule', actions: { webhook: true }, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string };
}

/** Posts events (each `[message, time]`, level error unless given) and waits for grouping and alert checks. */
async function log(t: TenantFixture, events: Array<{ message: string; at?: number; level?: string; scope?: string }>) {
  const res = await call(t, 'POST', '/logs', {
    events: events.map((e) => ({
      level: e.level ?? 'error',
      message: e.message,
      ...(e.scope ? { scope: e.scope } : {}),
      ...(e.at ? { timestamp: new Date(e.at).toISOString() } : {}),
    })),
  });
  expect(res.status, res.text).toBe(200);
  await app.drain();
}

const alerts = async (t: TenantFixture, query: Record<string, string> = {}) =>
  (await call(t, 'GET', '/log-alerts', undefined, query)).body.alerts as Array<Record<string, any>>;
const issueId = async (t: TenantFixture, search: string) =>
  (await call(t, 'GET', '/log-issues', undefined, { search })).body.issues[0].id as string;
/** A message shape nobody else sends (one issue per test). */
const shape = (what: string) => `${what} ${randomUUID().slice(0, 8)} failed with code <x>`;

describe('log alert rules', () => {
  it('validates rules, keeps them to their project and environment, and changes and deletes them', async () => {
    const t = await createTenant();
    // Each with the field its 422 names: nested ones at their own path, as everywhere else.
    const bad: [Record<string, unknown>, string][] = [
      [{ trigger: { type: 'spike', count: 10, windowMinutes: 5 } }, 'trigger.factor'],
      [{ trigger: { type: 'threshold', count: 0, windowMinutes: 5 } }, 'trigger.count'],
      [{ trigger: { type: 'threshold', count: 5, windowMinutes: 1441 } }, 'trigger.windowMinutes'],
      [{ trigger: { type: 'new_issue', count: 5 } }, 'trigger.count'],
      [{ trigger: { type: 'new_issue' }, actions: [] }, 'actions'],
      [{ trigger: { type: 'new_issue' }, actions: { email: [] } }, 'actions.email'],
      [
        {
          trigger: { type: 'new_issue' },
          actions: { email: { addresses: Array.from({ length: 11 }, (_, i) => `a${i}@example.com`) } },
        },
        'actions.email.addresses',
      ],
      [
        { trigger: { type: 'new_issue' }, actions: { email: { addresses: ['not an address'] } } },
        'actions.email.addresses.0',
      ],
      [{ trigger: { type: 'new_issue' }, actions: { webhook: 'yes' } }, 'actions.webhook'],
      [{ trigger: { type: 'new_issue' }, filters: [] }, 'filters'],
      [{ trigger: { type: 'new_issue' }, filters: { level: 'loud' } }, 'filters.level'],
      [{ trigger: { type: 'new_issue' }, filters: { issueIds: [] } }, 'filters.issueIds'],
      [{ trigger: { type: 'new_issue' }, cooldownMinutes: 0 }, 'cooldownMinutes'],
    ];
    for (const [body, field] of bad) {
      const res = await call(t, 'POST', '/log-alert-rules', { name: 'x', actions: { webhook: true }, ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const unknown = await call(t, 'POST', '/log-alert-rules', {
      name: 'x',
      trigger: { type: 'new_issue' },
      actions: { email: { memberIds: [randomUUID()] } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('log_alert.unknown_member');

    const created = await rule(t, {
      name: 'Checkout spikes',
      trigger: { type: 'spike', count: 50, windowMinutes: 5, factor: 3 },
      filters: { level: 'error', scopePrefix: 'checkout.' },
    });
    const got = (await call(t, 'GET', `/log-alert-rules/${created.id}`)).body;
    expect(got).toMatchObject({
      name: 'Checkout spikes',
      trigger: { type: 'spike', count: 50, windowMinutes: 5, factor: 3 },
      filters: { level: 'error', scopePrefix: 'checkout.' },
      actions: { email: { memberIds: [], addresses: [] }, webhook: true },
      cooldownMinutes: 30,
      enabled: true,
    });
    const patched = await call(t, 'PATCH', `/log-alert-rules/${created.id}`, { enabled: false, cooldownMinutes: 5 });
    expect(patched.body).toMatchObject({ enabled: false, cooldownMinutes: 5, name: 'Checkout spikes' });
    expect((await call(t, 'GET', '/log-alert-rules')).body.rules.map((r: { id: string }) => r.id)).toEqual([
      created.id,
    ]);

    const stranger = await createTenant();
    const path = `/log-alert-rules/${created.id}`;
    expect((await call(stranger, 'GET', path)).status).toBe(404);
    expect((await call(stranger, 'PATCH', path, { enabled: true })).status).toBe(404);
    expect((await call(stranger, 'DELETE', path)).status).toBe(404);
    expect((await app.call('GET', path, { key: t.sandboxKey })).status).toBe(404);
    expect((await app.call('GET', '/log-alert-rules', { key: t.sandboxKey })).body.rules).toEqual([]);
    expect((await call(t, 'DELETE', path)).body).toEqual({ deleted: true, id: created.id });
    expect((await call(t, 'GET', path)).status).toBe(404);
  });
});

describe('log alert rule limit', () => {
  it('keeps at most 50 rules when creates race', async () => {
    const t = await createTenant();
    for (let i = 0; i < 46; i++) await rule(t, { name: `r${i}`, trigger: { type: 'regression' } });
    const raced = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(t, 'POST', '/log-alert-rules', { name: `race${i}`, trigger: { type: 'regression' }, actions: {} }),
      ),
    );
    expect(raced.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of raced.filter((x) => x.status !== 200)) expect(r.body.error.code).toBe('log_alert.limit');
    expect((await call(t, 'GET', '/log-alert-rules')).body.rules).toHaveLength(50);
  });
});

describe('log alerts', () => {
  it('alerts on a new issue by webhook and mail, once, and not for a filtered-out one', async () => {
    const t = await createTenant();
    const member = await t.member({ email: customerEmail('oncall'), role: 'agent' });
    const outside = customerEmail('pager');
    const r = await rule(t, {
      name: 'New errors',
      trigger: { type: 'new_issue' },
      filters: { level: 'error', scopePrefix: 'billing.' },
      actions: { webhook: true, email: { memberIds: [member.memberId], addresses: [outside] } },
    });
    const message = shape('Invoice run');
    await log(t, [{ message, scope: 'billing.invoices' }]);
    await log(t, [{ message, scope: 'billing.invoices' }]);
    await log(t, [{ message: shape('Cache warmup'), level: 'warn', scope: 'billing.cache' }]);
    await log(t, [{ message: shape('Login'), scope: 'auth.login' }]);
    const id = await issueId(t, message.split(' ').slice(0, 2).join(' '));
    const fired = await alerts(t);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ ruleId: r.id, ruleName: 'New errors', trigger: 'new_issue', count: null });
    expect(fired[0]!.issue).toMatchObject({ id, level: 'error', scope: 'billing.invoices' });
    const events = (await emitted(app)).filter((e) => e.name === 'log_issue.alert' && e.data.issue.id === id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data.alert).toMatchObject({ ruleId: r.id, trigger: 'new_issue' });
    for (const to of [member.email, outside]) {
      let mails = await mailsTo(to);
      for (let i = 0; i < 25 && mails.length === 0; i++) {
        await app.drain();
        mails = await mailsTo(to);
      }
      expect(mails.map((m) => m.subject)).toEqual([`New issue: ${fired[0]!.issue.title}`]);
    }
    expect((await alerts(t, { ruleId: r.id, issueId: id })).length).toBe(1);
    // A new issue made by events more than a day old (a backfill) alerts nobody.
    await log(t, [{ message: shape('Old import'), scope: 'billing.import', at: Date.now() - 2 * 86_400_000 }]);
    expect(await alerts(t)).toHaveLength(1);
    expect(await alerts(t, { issueId: randomUUID() })).toEqual([]);
    expect((await app.call('GET', '/log-alerts', { key: t.sandboxKey })).body.alerts).toEqual([]);
  });

  it('counts mail to outside addresses against the email allowance, and mails only members once it is spent', async () => {
    const t = await createTenant({ limits: { emails: 1 } });
    const member = await t.member({ email: customerEmail('member'), role: 'agent' });
    const outside = [customerEmail('out1'), customerEmail('out2')];
    await rule(t, {
      trigger: { type: 'new_issue' },
      actions: { email: { memberIds: [member.memberId], addresses: outside } },
    });
    await log(t, [{ message: shape('Quota probe') }]);
    expect(await alerts(t)).toHaveLength(1);
    let mails = await mailsTo(member.email);
    for (let i = 0; i < 25 && mails.length === 0; i++) {
      await app.drain();
      mails = await mailsTo(member.email);
    }
    expect(mails).toHaveLength(1);
    for (const to of outside) expect(await mailsTo(to)).toEqual([]);
  });

  it('alerts when a threshold is crossed, once per cool-down, whatever order the batches arrive in', async () => {
    const t = await createTenant();
    const r = await rule(t, { trigger: { type: 'threshold', count: 6, windowMinutes: 10 } });
    const message = shape('Queue consumer');
    const now = Date.now();
    // Five events over the last 9 minutes, sent newest first: below the threshold.
    await log(
      t,
      [0, 2, 4, 6, 8].map((m) => ({ message, at: now - m * MINUTE })),
    );
    expect(await alerts(t)).toEqual([]);
    // A late one from 9 minutes ago (a batch delivered out of order) makes six within ten minutes.
    await log(t, [{ message, at: now - 9 * MINUTE }]);
    const fired = await alerts(t);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ ruleId: r.id, trigger: 'threshold', count: 6, windowMinutes: 10 });
    // More events in the cool-down: no second alert.
    await log(t, [{ message }, { message }, { message }]);
    expect(await alerts(t)).toHaveLength(1);
    // Events older than a day are history: counted, but they alert nobody.
    const old = shape('Old batch');
    await log(
      t,
      [0, 1, 2, 3, 4, 5, 6].map((s) => ({ message: old, at: now - 2 * 86_400_000 - s * 1000 })),
    );
    expect(await alerts(t)).toHaveLength(1);
  });

  it('alerts once when two checks see one crossing at the same moment', async () => {
    const t = await createTenant();
    const message = shape('Report build');
    await log(t, [{ message }]);
    const id = await issueId(t, message.split(' ').slice(0, 2).join(' '));
    const r = await rule(t, { trigger: { type: 'new_issue' } });
    // The same check delivered twice, at once (SQS delivers at least once).
    const job = {
      accountId: t.accountId,
      projectId: t.projects.main!.id,
      env: 'live' as const,
      issueId: id,
      created: true,
      regressed: false,
      minutes: [new Date().toISOString().slice(0, 16)],
    };
    await Promise.all([checkLogAlerts(job), checkLogAlerts(job), checkLogAlerts(job)]);
    expect((await alerts(t)).map((a) => a.ruleId)).toEqual([r.id]);
  });

  it('alerts on a spike against the issue baseline, and not when the rise is within the factor', async () => {
    const t = await createTenant();
    const message = shape('Payment gateway');
    const now = Date.now();
    // A steady two events an hour over the day before.
    await log(
      t,
      Array.from({ length: 46 }, (_, i) => ({ message, at: now - 2 * 3_600_000 - i * 30 * MINUTE })),
    );
    const mild = await rule(t, { name: 'x100', trigger: { type: 'spike', count: 8, windowMinutes: 5, factor: 100 } });
    const sharp = await rule(t, { name: 'x3', trigger: { type: 'spike', count: 8, windowMinutes: 5, factor: 3 } });
    // Eight in two minutes: 48 times the usual 1/6 event per 5 minutes.
    await log(
      t,
      Array.from({ length: 8 }, (_, i) => ({ message, at: now - i * 15_000 })),
    );
    const fired = await alerts(t);
    expect(fired.map((a) => a.ruleId)).toEqual([sharp.id]);
    expect(fired[0]).toMatchObject({ trigger: 'spike', count: 8, windowMinutes: 5 });
    // 46 events in the 24 hours before the window: 46/1440 a minute, 0.16 in five minutes.
    expect(fired[0]!.baseline).toBeCloseTo(0.16, 2);
    expect(fired.some((a) => a.ruleId === mild.id)).toBe(false);
  });

  it('alerts on a regression, stays quiet while snoozed or ignored, and shows the snooze on the issue', async () => {
    const t = await createTenant();
    await rule(t, { name: 'Regressions', trigger: { type: 'regression' } });
    const message = shape('Export job');
    await log(t, [{ message }]);
    const id = await issueId(t, message.split(' ').slice(0, 2).join(' '));
    await call(t, 'PATCH', `/log-issues/${id}`, { status: 'resolved' });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const snoozed = await call(t, 'POST', `/log-issues/${id}/snooze`, { until });
    expect(snoozed.status, snoozed.text).toBe(200);
    expect(snoozed.body.snoozedUntil).toBe(until);
    await log(t, [{ message }]);
    expect(await alerts(t)).toEqual([]);
    // The snooze ends; resolved again, it regresses again and alerts.
    expect((await call(t, 'DELETE', `/log-issues/${id}/snooze`)).body.snoozedUntil).toBeNull();
    await call(t, 'PATCH', `/log-issues/${id}`, { status: 'resolved' });
    await log(t, [{ message }]);
    expect((await alerts(t)).map((a) => a.trigger)).toEqual(['regression']);
    // Ignored: nothing alerts for it.
    await call(t, 'PATCH', `/log-issues/${id}`, { status: 'ignored' });
    await rule(t, { name: 'Any event', trigger: { type: 'threshold', count: 1, windowMinutes: 5 } });
    await log(t, [{ message }]);
    expect(await alerts(t)).toHaveLength(1);
    // Bad snoozes and other tenants.
    for (const body of [{ until: new Date(Date.now() - MINUTE).toISOString() }, { until: 'tomorrow' }, {}])
      expect((await call(t, 'POST', `/log-issues/${id}/snooze`, body)).status).toBe(422);
    const stranger = await createTenant();
    expect((await call(stranger, 'POST', `/log-issues/${id}/snooze`, { until })).status).toBe(404);
    expect((await call(stranger, 'DELETE', `/log-issues/${id}/snooze`)).status).toBe(404);
    expect((await call(stranger, 'GET', `/log-issues/${id}/activity`)).status).toBe(404);
    // A merged issue's alerts are its target's: snoozing it is refused as changing its status is.
    const other = shape('Import job');
    await log(t, [{ message: other }]);
    const merged = await issueId(t, other.split(' ').slice(0, 2).join(' '));
    expect((await call(t, 'POST', `/log-issues/${merged}/merge`, { into: id })).status).toBe(200);
    for (const res of [
      await call(t, 'POST', `/log-issues/${merged}/snooze`, { until }),
      await call(t, 'DELETE', `/log-issues/${merged}/snooze`),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'log_issue.already_merged', details: { mergedInto: id } });
    }
  });

  it("charts an issue's events per hour and per day, with the releases first seen", async () => {
    const t = await createTenant();
    const message = shape('Thumbnail render');
    const now = Date.now();
    const res = await call(t, 'POST', '/logs', {
      events: [
        { level: 'error', message, release: '3.1.0', timestamp: new Date(now).toISOString() },
        { level: 'error', message, release: '3.1.0', timestamp: new Date(now - 3 * 3_600_000).toISOString() },
        { level: 'error', message, timestamp: new Date(now - 3 * 3_600_000 - MINUTE).toISOString() },
        { level: 'error', message, timestamp: new Date(now - 5 * 86_400_000).toISOString() },
      ],
    });
    expect(res.status).toBe(200);
    await app.drain();
    const id = await issueId(t, message.split(' ').slice(0, 2).join(' '));
    const activity = (await call(t, 'GET', `/log-issues/${id}/activity`)).body;
    expect(activity.hourly).toHaveLength(24);
    expect(activity.daily).toHaveLength(30);
    expect(activity.hourly.at(-1).count).toBe(1);
    expect(activity.hourly.at(-4).count + activity.hourly.at(-5).count).toBe(2);
    expect(activity.hourly.reduce((n: number, h: { count: number }) => n + h.count, 0)).toBe(3);
    expect(activity.daily.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(4);
    expect(activity.daily.at(-6).count + activity.daily.at(-5).count).toBe(1);
    expect(activity.releases.map((r: { release: string }) => r.release)).toEqual(['3.1.0']);
  });
});

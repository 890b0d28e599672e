import { ingestLogs } from '@helpdesk/core/areas/logs/ingest';
import { PLAN_ALLOWANCES } from '@helpdesk/core/identity/plans';
import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';

const app = await startTestApp();

interface Row {
  message: string;
  timestamp: string;
}
const messages = (body: { logs: Row[] }) => body.logs.map((e) => e.message);

describe('GET /logs', () => {
  let t: TenantFixture;
  const get = (query: Record<string, string | number> = {}) => app.call('GET', '/logs', { key: t.liveKey, query });

  beforeAll(async () => {
    t = await createTenant();
    const res = await app.call('POST', '/logs', {
      key: t.liveKey,
      body: {
        events: [
          { level: 'info', scope: 'Auth', message: 'User signed in', timestamp: '2026-02-01T00:00:00.000Z' },
          { level: 'warn', scope: 'billing', message: 'Card expiring soon', timestamp: '2026-02-01T23:59:59.999Z' },
          { level: 'error', scope: 'billing', message: 'Charge 1 failed', timestamp: '2026-02-02T08:00:00.000Z' },
          {
            level: 'fatal',
            scope: 'db',
            message: 'Connection lost to AUTH store',
            timestamp: '2026-02-03T12:00:00.000Z',
          },
          { level: 'error', scope: 'billing', message: 'Charge 2 failed', timestamp: '2026-02-04T08:00:00.000Z' },
          { level: 'debug', message: 'tick', timestamp: '2026-02-05T00:00:00.000Z' },
        ],
      },
    });
    expect(res.status).toBe(200);
  });

  it('lists newest first with the list shape and the logs page size', async () => {
    const res = await get();
    expect(res.body).toMatchObject({ total: 6, page: 1, limit: 50 });
    expect(messages(res.body)).toEqual([
      'tick',
      'Charge 2 failed',
      'Connection lost to AUTH store',
      'Charge 1 failed',
      'Card expiring soon',
      'User signed in',
    ]);
    const second = await get({ page: 2, limit: 4 });
    expect(second.body).toMatchObject({ total: 6, page: 2, limit: 4 });
    expect(messages(second.body)).toEqual(['Card expiring soon', 'User signed in']);
    expect((await get({ limit: 100 })).status).toBe(200);
    expect((await get({ limit: 101 })).status).toBe(422);
    expect((await get({ page: 0 })).status).toBe(422);
  });

  it('filters by a list of levels and by scope', async () => {
    expect(messages((await get({ level: 'error,fatal' })).body)).toEqual([
      'Charge 2 failed',
      'Connection lost to AUTH store',
      'Charge 1 failed',
    ]);
    expect(messages((await get({ scope: 'billing' })).body)).toEqual([
      'Charge 2 failed',
      'Charge 1 failed',
      'Card expiring soon',
    ]);
    expect(messages((await get({ scope: 'billing', level: 'warn' })).body)).toEqual(['Card expiring soon']);
    expect((await get({ level: 'critical' })).status).toBe(422);
  });

  it('searches message or scope, case-insensitively', async () => {
    expect(messages((await get({ search: 'auth' })).body)).toEqual(['Connection lost to AUTH store', 'User signed in']);
    expect(messages((await get({ search: 'CHARGE' })).body)).toEqual(['Charge 2 failed', 'Charge 1 failed']);
    expect((await get({ search: 'nothing like it' })).body.total).toBe(0);
    expect((await get({ search: '' })).body.total).toBe(6);
  });

  it('filters by fingerprint', async () => {
    const all = (await get()).body.logs as { message: string; fingerprint: string }[];
    const charge = all.find((e) => e.message === 'Charge 1 failed')!;
    const res = await get({ fingerprint: charge.fingerprint });
    expect(messages(res.body)).toEqual(['Charge 2 failed', 'Charge 1 failed']);
    expect((await get({ fingerprint: 'f'.repeat(32) })).body.total).toBe(0);
  });

  it('filters by an inclusive date range, dates or date-times', async () => {
    expect(messages((await get({ dateFrom: '2026-02-02', dateTo: '2026-02-03' })).body)).toEqual([
      'Connection lost to AUTH store',
      'Charge 1 failed',
    ]);
    expect(messages((await get({ dateTo: '2026-02-01' })).body)).toEqual(['Card expiring soon', 'User signed in']);
    expect(messages((await get({ dateFrom: '2026-02-04' })).body)).toEqual(['tick', 'Charge 2 failed']);
    expect(
      messages((await get({ dateFrom: '2026-02-01T23:59:59.999Z', dateTo: '2026-02-02T09:00:00+01:00' })).body),
    ).toEqual(['Charge 1 failed', 'Card expiring soon']);
    expect(
      messages((await get({ dateFrom: '2026-02-02', dateTo: '2026-02-04', level: 'error', search: '2' })).body),
    ).toEqual(['Charge 2 failed']);
    expect((await get({ dateFrom: 'yesterday' })).status).toBe(422);
  });

  it('never returns events past their retention, and keeps projects apart', async () => {
    const old = await createTenant({ plan: 'free', projects: ['main', 'other'] });
    const ctx: TenantContext = {
      accountId: old.accountId,
      plan: 'free',
      allowances: PLAN_ALLOWANCES.free,
      projectId: old.projects.main!.id,
      projectSlug: 'main',
      project: old.projects.main!,
      env: 'live',
    };
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    await ingestLogs(ctx, [{ level: 'error', message: 'expired one', fingerprint: ['one'] }], eightDaysAgo);
    await ingestLogs(
      ctx,
      [{ level: 'error', message: 'kept one', fingerprint: ['one'] }],
      new Date(Date.now() - 6 * 86_400_000),
    );
    const query = { project: 'main' };
    const res = await app.call('GET', '/logs', { key: old.liveKey, query });
    expect(messages(res.body)).toEqual(['kept one']);
    expect(res.body.total).toBe(1);
    expect(
      (await app.call('GET', '/logs', { key: old.liveKey, query: { ...query, search: 'expired' } })).body.total,
    ).toBe(0);
    expect((await app.call('GET', '/logs', { key: old.liveKey, query: { project: 'other' } })).body.total).toBe(0);
    await app.drain();
    const [issue] = (await app.call('GET', '/log-issues', { key: old.liveKey, query })).body.issues;
    const detail = await app.call('GET', `/log-issues/${issue.id}`, { key: old.liveKey, query });
    expect(detail.body.count).toBe(2);
    expect(messages({ logs: detail.body.latestEvents })).toEqual(['kept one']);
  });
});

describe('GET /log-issues', () => {
  let t: TenantFixture;
  const get = (query: Record<string, string | number> = {}) =>
    app.call('GET', '/log-issues', { key: t.liveKey, query });
  const titles = (body: { issues: { title: string }[] }) => body.issues.map((i) => i.title);

  beforeAll(async () => {
    t = await createTenant();
    const send = (events: Record<string, unknown>[]) => app.call('POST', '/logs', { key: t.liveKey, body: { events } });
    await send([
      {
        level: 'error',
        scope: 'billing',
        message: 'Charge 1 failed',
        timestamp: '2026-02-03T00:00:00Z',
        fingerprint: ['charge'],
      },
      {
        level: 'fatal',
        scope: 'billing',
        message: 'Charge 2 failed',
        timestamp: '2026-02-03T01:00:00Z',
        fingerprint: ['charge'],
      },
      { level: 'warn', scope: 'Auth', message: 'Slow login', timestamp: '2026-02-01T00:00:00Z' },
      { level: 'info', scope: 'jobs', message: 'Job auth-sync done', timestamp: '2026-02-05T00:00:00Z' },
      { level: 'error', scope: 'jobs', message: 'Job failed', timestamp: '2026-02-02T00:00:00Z' },
    ]);
    await app.drain();
    const { issues } = (await get()).body as { issues: { id: string; title: string }[] };
    const idOf = (title: string) => issues.find((i) => i.title === title)!.id;
    await app.call('PATCH', `/log-issues/${idOf('Slow login')}`, { key: t.liveKey, body: { status: 'acknowledged' } });
    await app.call('PATCH', `/log-issues/${idOf('Job failed')}`, { key: t.liveKey, body: { status: 'resolved' } });
    await app.call('PATCH', `/log-issues/${idOf('Job auth-sync done')}`, {
      key: t.liveKey,
      body: { status: 'ignored' },
    });
  });

  it('lists most recently seen first under the key issues, with the list rules', async () => {
    const res = await get();
    expect(res.body).toMatchObject({ total: 4, page: 1, limit: 25 });
    expect(titles(res.body)).toEqual(['Job auth-sync done', 'Charge <num> failed', 'Job failed', 'Slow login']);
    expect(res.body.issues[1]).toMatchObject({ level: 'fatal', count: 2, scope: 'billing', status: 'open' });
    const page = await get({ page: 2, limit: 3 });
    expect(titles(page.body)).toEqual(['Slow login']);
    expect((await get({ limit: 0 })).status).toBe(422);
  });

  it('filters by status and level lists, scope and search', async () => {
    expect(titles((await get({ status: 'open,acknowledged' })).body)).toEqual(['Charge <num> failed', 'Slow login']);
    expect(titles((await get({ status: 'resolved' })).body)).toEqual(['Job failed']);
    expect(titles((await get({ level: 'error,fatal' })).body)).toEqual(['Charge <num> failed', 'Job failed']);
    expect(titles((await get({ scope: 'jobs' })).body)).toEqual(['Job auth-sync done', 'Job failed']);
    expect(titles((await get({ search: 'AUTH' })).body)).toEqual(['Job auth-sync done', 'Slow login']);
    expect(titles((await get({ status: 'ignored', level: 'info', scope: 'jobs', search: 'sync' })).body)).toEqual([
      'Job auth-sync done',
    ]);
    expect((await get({ status: 'closed' })).status).toBe(422);
  });
});

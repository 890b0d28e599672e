import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { createTicket, customerEmail } from './helpers.js';

const app = await startTestApp();

let t: TenantFixture;
/** Keys of project main only. */
let key: string;
let sandboxKey: string;
let alice: string;
let bob: string;
const ids: Record<string, string> = {};
const numbers: Record<string, number> = {};

const list = async (query: Record<string, string | number | boolean | undefined> = {}, k = key) => {
  const res = await app.call('GET', '/tickets', { key: k, query });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    tickets: Record<string, any>[];
    total: number;
    page: number;
    limit: number;
    nextCursor: string | null;
  };
};
const names = (rows: Record<string, any>[]) => rows.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

/**
 * Tickets, oldest activity first (each write moves a ticket to the top):
 * a new, customer last, unassigned, low/bug;   b open (replied), alice, high/billing;
 * c pending, customer last, bob, medium/other;  d resolved, customer last, alice, urgent/bug;
 * e closed, bob, low/howto;                     f new, internal note last, unassigned, high/feature_request.
 */
beforeAll(async () => {
  t = await createTenant({ projects: ['main', 'other'] });
  key = await t.key({ projects: ['main'] });
  sandboxKey = await t.key({ env: 'sandbox', projects: ['main'] });
  alice = (await t.member({ name: 'Alice' })).memberId;
  bob = (await t.member({ name: 'Bob' })).memberId;
  const make = async (name: string, body: Record<string, unknown>) => {
    const c = await createTicket(app, key, body);
    ids[name] = c.id;
    numbers[name] = c.number;
    return c.id;
  };
  await make('a', { subject: 'Login loop', priority: 'low', category: 'bug', customer: { email: 'Zed@Example.org' } });
  const b = await make('b', {
    subject: 'Invoice total wrong',
    priority: 'high',
    category: 'billing',
    assignedTo: alice,
  });
  const c = await make('c', { subject: 'How to export', category: 'other', assignedTo: bob });
  const d = await make('d', { subject: 'Crash on save', priority: 'urgent', category: 'bug', assignedTo: alice });
  const e = await make('e', { subject: 'Docs question', priority: 'low', category: 'howto', assignedTo: bob });
  const f = await make('f', { subject: 'Dark mode please', priority: 'high', category: 'feature_request' });
  await app.call('POST', `/tickets/${b}/messages`, { key: key, body: { body: 'Fixed it' } });
  await app.call('PATCH', `/tickets/${c}`, { key: key, body: { status: 'pending' } });
  await app.call('PATCH', `/tickets/${d}`, { key: key, body: { status: 'resolved' } });
  await app.call('PATCH', `/tickets/${e}`, { key: key, body: { status: 'closed' } });
  await app.call('POST', `/tickets/${f}/messages`, { key: key, body: { body: 'VIP', visibility: 'internal' } });
  // Noise the list must never show: another project and the sandbox.
  await createTicket(app, t.liveKey, { subject: 'Login loop elsewhere' }, { 'Service-Project': 'other' });
  await createTicket(app, sandboxKey, { subject: 'Login loop in sandbox' });
}, 120_000);

describe('GET /tickets', () => {
  it('lists the project and environment tickets, most recent activity first, with lastSenderType and lastMessageAt', async () => {
    const all = await list();
    expect(names(all.tickets)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect(all).toMatchObject({ total: 6, page: 1, limit: 25, nextCursor: null });
    const b = all.tickets.find((r) => r.id === ids.b)!;
    expect(b).toMatchObject({
      projectId: t.projects.main!.id,
      projectSlug: 'main',
      number: numbers.b,
      status: 'open',
      priority: 'high',
      category: 'billing',
      assignedTo: alice,
      lastSenderType: 'staff',
    });
    const detail = await app.call('GET', `/tickets/${ids.b}`, { key: key });
    expect(b.lastMessageAt).toBe(detail.body.messages[1].createdAt);
    expect(all.tickets.find((r) => r.id === ids.a)).toMatchObject({
      lastSenderType: 'customer',
      assignedTo: null,
      customerEmail: 'zed@example.org',
    });

    const sandbox = await list({}, sandboxKey);
    expect(sandbox.tickets.map((r) => r.subject)).toEqual(['Login loop in sandbox']);
  });

  it('filters by each single field', async () => {
    expect(names((await list({ status: 'new' })).tickets)).toEqual(['f', 'a']);
    expect((await list({ status: 'new' })).total).toBe(2);
    expect(names((await list({ status: 'closed' })).tickets)).toEqual(['e']);
    expect(names((await list({ priority: 'high' })).tickets)).toEqual(['f', 'b']);
    expect((await list({ priority: 'high' })).total).toBe(2);
    expect(names((await list({ category: 'bug' })).tickets)).toEqual(['d', 'a']);
    expect(names((await list({ assignee: alice })).tickets)).toEqual(['d', 'b']);
    expect(names((await list({ assignee: `${alice},${bob}` })).tickets)).toEqual(['e', 'd', 'c', 'b']);
    expect((await list({ assignee: `${alice},${bob}` })).total).toBe(4);
    expect(names((await list({ assignee: 'unassigned' })).tickets)).toEqual(['f', 'a']);
    expect(names((await list({ assignee: `unassigned,${bob}` })).tickets)).toEqual(['f', 'e', 'c', 'a']);
    // UUIDs are case-insensitive: an id in capitals names the same member.
    expect(names((await list({ assignee: ` ${alice.toUpperCase()} , unassigned` })).tickets)).toEqual([
      'f',
      'd',
      'b',
      'a',
    ]);
    expect((await app.call('GET', `/tickets/${ids.b!.toUpperCase()}`, { key })).body.id).toBe(ids.b);
    expect(names((await list({ number: numbers.c! })).tickets)).toEqual(['c']);
    expect((await list({ number: 999 })).tickets).toEqual([]);
  });

  it('searches subject or customer email case-insensitively', async () => {
    expect(names((await list({ search: 'LOGIN' })).tickets)).toEqual(['a']);
    expect(names((await list({ search: 'zed@EXAMPLE' })).tickets)).toEqual(['a']);
    expect(names((await list({ search: 'o' })).tickets)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect((await list({ search: 'nothing like this' })).total).toBe(0);
  });

  it('awaitingReply returns only new, open and pending tickets whose latest message is the customer s', async () => {
    for (const value of ['true', '1']) {
      const res = await list({ awaitingReply: value });
      expect(names(res.tickets)).toEqual(['c', 'a']);
      expect(res.total).toBe(2);
    }
    expect(names((await list({ awaitingReply: 'false' })).tickets)).toHaveLength(6);
    expect(names((await list({ awaitingReply: true, status: 'pending' })).tickets)).toEqual(['c']);
    expect(names((await list({ awaitingReply: true, status: 'resolved' })).tickets)).toEqual([]);
    expect(names((await list({ awaitingReply: true, status: 'open' })).tickets)).toEqual([]);
  });

  it('combines filters', async () => {
    expect(names((await list({ status: 'new', priority: 'high' })).tickets)).toEqual(['f']);
    expect(names((await list({ priority: 'low', category: 'howto' })).tickets)).toEqual(['e']);
    expect(names((await list({ assignee: alice, category: 'bug' })).tickets)).toEqual(['d']);
    expect(names((await list({ assignee: 'unassigned', search: 'dark' })).tickets)).toEqual(['f']);
    expect(names((await list({ awaitingReply: true, assignee: bob })).tickets)).toEqual(['c']);
    expect(names((await list({ number: numbers.d!, status: 'resolved' })).tickets)).toEqual(['d']);
    expect(names((await list({ number: numbers.d!, status: 'new' })).tickets)).toEqual([]);
    const combined = await list({
      status: 'new',
      category: 'bug',
      search: 'login',
      assignee: 'unassigned',
      priority: 'low',
    });
    expect(names(combined.tickets)).toEqual(['a']);
    expect(combined.total).toBe(1);
  });

  it('pages with page/limit and walks with nextCursor, with and without filters', async () => {
    const p2 = await list({ limit: 2, page: 2 });
    expect(names(p2.tickets)).toEqual(['d', 'c']);
    expect(p2).toMatchObject({ total: 6, page: 2, limit: 2 });
    expect(names((await list({ limit: 4, page: 2 })).tickets)).toEqual(['b', 'a']);
    expect((await list({ limit: 4, page: 2 })).nextCursor).toBeNull();
    expect((await list({ page: 5 })).tickets).toEqual([]);

    const filters: Record<string, string>[] = [
      {},
      { assignee: `${alice},${bob}` },
      { search: 'o' },
      { priority: 'high' },
    ];
    for (const filter of filters) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await list({ ...filter, limit: 1, ...(cursor ? { cursor } : {}) });
        seen.push(...res.tickets.map((r) => r.id));
        cursor = res.nextCursor ?? undefined;
      } while (cursor);
      const expected = (await list(filter)).tickets.map((r) => r.id);
      expect(seen, JSON.stringify(filter)).toEqual(expected);
    }
  });

  it('refuses invalid parameters with 422', async () => {
    for (const query of [
      { status: 'archived' },
      { priority: 'x' },
      { limit: 101 },
      { limit: 0 },
      { page: 0 },
      { number: 'x' },
      { awaitingReply: 'yes' },
      { cursor: 'garbage' },
    ]) {
      const res = await app.call('GET', '/tickets', { key: key, query });
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
  });

  it('keeps counts right through moves and deletes', async () => {
    const x = await createTicket(app, key, { subject: 'Temporary', customer: { email: customerEmail() } });
    expect((await list({ status: 'new' })).total).toBe(3);
    expect((await list({ awaitingReply: true })).total).toBe(3);
    await app.call('PATCH', `/tickets/${x.id}`, { key: key, body: { status: 'pending', priority: 'urgent' } });
    expect((await list({ status: 'new' })).total).toBe(2);
    expect((await list({ status: 'pending' })).total).toBe(2);
    expect((await list({ priority: 'urgent' })).total).toBe(2);
    await app.call('DELETE', `/tickets/${x.id}`, { key: key });
    expect((await list()).total).toBe(6);
    expect((await list({ status: 'pending' })).total).toBe(1);
    expect((await list({ awaitingReply: true })).total).toBe(2);
    expect((await list({ priority: 'urgent' })).total).toBe(1);
  });
});

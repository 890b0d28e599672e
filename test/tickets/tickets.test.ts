import { matchOrCreateCustomer } from '@helpdesk/core/areas/customers/match';
import { createTicket as createTicketCore } from '@helpdesk/core/areas/tickets/create';
import { latestTicketsForCustomer } from '@helpdesk/core/areas/tickets/customer-tickets';
import { describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { emitted } from './event-spy.js';
import { createTicket, customerEmail, tenantContext } from './helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) => (await import('./event-spy.js')).spiedRelay(original));

const eventsFor = async (ticketId: string) => (await emitted(app)).filter((e) => e.data.ticket?.id === ticketId);

const app = await startTestApp();
/** Headers that point a key of project `a`'s tenant at project `b`, or at a's sandbox. */
const crossTenant: Record<string, string>[] = [
  { 'Service-Project': 'b' },
  { 'Service-Project': 'a', 'Service-Environment': 'sandbox' },
];

describe('POST /tickets', () => {
  it('creates a ticket in status new with the customer first message and fires ticket.created and customer.created', async () => {
    const t = await createTenant();
    const email = customerEmail();
    const res = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: {
        subject: 'Broken invoice',
        body: 'The total is wrong.',
        customer: { email: email.toUpperCase(), name: 'Ada' },
        category: 'billing',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      number: 1,
      subject: 'Broken invoice',
      status: 'new',
      priority: 'medium',
      customer: { email, name: 'Ada' },
      customFields: {},
      createdAt: expect.any(String),
    });
    const detail = await app.call('GET', `/tickets/${res.body.id}`, { key: t.liveKey });
    expect(detail.body).toMatchObject({
      id: res.body.id,
      number: 1,
      status: 'new',
      priority: 'medium',
      category: 'billing',
      assignedTo: null,
      customerEmail: email,
      customerName: 'Ada',
      customer: { email, name: 'Ada' },
      closedAt: null,
      lastSenderType: 'customer',
      tags: [],
      messages: [
        {
          senderType: 'customer',
          visibility: 'public',
          body: 'The total is wrong.',
          attachments: [],
          ticketId: res.body.id,
        },
      ],
    });

    const created = await eventsFor(res.body.id);
    expect(created).toEqual([
      {
        source: expect.objectContaining({ projectId: t.projects.main!.id, env: 'live' }),
        name: 'ticket.created',
        data: {
          ticket: { id: res.body.id, number: 1, subject: 'Broken invoice', status: 'new', priority: 'medium' },
          customer: { email, name: 'Ada' },
          source: 'api',
        },
      },
    ]);
    expect(
      (await emitted(app)).filter((e) => e.name === 'customer.created' && e.data.customer.email === email),
    ).toHaveLength(1);
  });

  it('matches the customer by email case-insensitively instead of creating another', async () => {
    const t = await createTenant();
    const email = customerEmail();
    await createTicket(app, t.liveKey, { customer: { email } });
    await createTicket(app, t.liveKey, { customer: { email: email.toUpperCase() } });
    expect(
      (await emitted(app)).filter((e) => e.name === 'customer.created' && e.data.customer.email === email),
    ).toHaveLength(1);
    const customers = await app.call('GET', '/customers', { key: t.liveKey });
    if (customers.status === 200) {
      const matching = customers.body.customers.filter((c: { email: string }) => c.email === email);
      expect(matching).toHaveLength(1);
      expect(matching[0].ticketCount).toBe(2);
    }
  });

  it('numbers tickets from 1 per project and per environment', async () => {
    const t = await createTenant({ projects: ['a', 'b'] });
    const a = { 'Service-Project': 'a' };
    const b = { 'Service-Project': 'b' };
    expect((await createTicket(app, t.liveKey, {}, a)).number).toBe(1);
    expect((await createTicket(app, t.liveKey, {}, a)).number).toBe(2);
    expect((await createTicket(app, t.liveKey, {}, b)).number).toBe(1);
    expect((await createTicket(app, t.sandboxKey, {}, a)).number).toBe(1);
    expect((await createTicket(app, t.liveKey, {}, a)).number).toBe(3);
  });

  it('gives 60 concurrent creates 60 distinct numbers', async () => {
    const t = await createTenant();
    const key = await t.key({ rateLimit: 1000 });
    // Through the core call, not HTTP, and 20 in flight at a time: concurrent creates on one counter are
    // under test, and each commit waits for the one before it (200 at once on one customer queued on
    // DynamoDB Local past its 30 s request time-out when the suite loaded the machine).
    const ctx = await tenantContext(t);
    const customer = { email: customerEmail() };
    const pending = Array.from({ length: 60 }, (_, i) => i);
    const created: { number: number }[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = pending.shift(); i !== undefined; i = pending.shift())
          created.push(await createTicketCore(ctx, { subject: `Load ${i}`, body: 'x', customer }));
      }),
    );
    expect(created.map((c) => c.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const list = await app.call('GET', '/tickets', { key, query: { limit: 1 } });
    expect(list.body.total).toBe(60);
    // And concurrently over HTTP, continuing the sequence.
    const more = await Promise.all(Array.from({ length: 20 }, () => createTicket(app, key, { customer })));
    expect(more.map((c) => c.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 61));
  }, 180_000);

  it('creates a new customer once under concurrent creates, counts every ticket and fires customer.created once', async () => {
    const t = await createTenant();
    const ctx = await tenantContext(t);
    const email = customerEmail();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createTicketCore(ctx, { subject: `Race ${i}`, body: 'x', customer: { email } }),
      ),
    );
    expect(
      (await emitted(app)).filter((e) => e.name === 'customer.created' && e.data.customer.email === email),
    ).toHaveLength(1);
    const customers = await app.call('GET', '/customers', { key: t.liveKey, query: { search: email } });
    expect(customers.body.customers).toMatchObject([{ email, ticketCount: 12 }]);
  });

  it("takes the directory's current name when the create gives none", async () => {
    const t = await createTenant();
    const email = customerEmail();
    await createTicket(app, t.liveKey, { customer: { email, name: 'Old' } });
    const [customer] = (await app.call('GET', '/customers', { key: t.liveKey, query: { search: email } })).body
      .customers;
    expect(
      (await app.call('PATCH', `/customers/${customer.id}`, { key: t.liveKey, body: { name: 'New' } })).status,
    ).toBe(200);
    expect((await createTicket(app, t.liveKey, { customer: { email } })).customer).toEqual({ email, name: 'New' });
    await app.call('PATCH', `/customers/${customer.id}`, { key: t.liveKey, body: { name: null } });
    expect((await createTicket(app, t.liveKey, { customer: { email } })).customer).toEqual({ email, name: email });
  });

  it('stores tags (trimmed, de-duplicated case-insensitively, in the order given) and an assignee given at creation', async () => {
    const t = await createTenant();
    const m = await t.member();
    const c = await createTicket(app, t.liveKey, {
      tags: [' zeta ', 'VIP', 'vip', 'billing', 'Alpha'],
      assignedTo: m.memberId,
      priority: 'urgent',
    });
    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey });
    expect(detail.body.tags).toEqual(['zeta', 'VIP', 'billing', 'Alpha']);
    // Tags added later come after the create's, whatever their spelling.
    const added = await app.call('POST', `/tickets/${c.id}/tags`, { key: t.liveKey, body: { tag: 'aaa' } });
    expect(added.body.tags).toEqual(['zeta', 'VIP', 'billing', 'Alpha', 'aaa']);
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.tags).toEqual([
      'zeta',
      'VIP',
      'billing',
      'Alpha',
      'aaa',
    ]);
    expect(detail.body.assignedTo).toBe(m.memberId);
    expect(detail.body.priority).toBe('urgent');
  });

  it('refuses invalid bodies, unknown fields and unknown members with 422', async () => {
    const t = await createTenant();
    const base = { subject: 'x', body: 'y', customer: { email: customerEmail() } };
    const cases: unknown[] = [
      { ...base, subject: '' },
      { ...base, subject: 'x'.repeat(201) },
      { ...base, body: 'x'.repeat(10_001) },
      { ...base, customer: { email: 'not-an-email' } },
      { ...base, customer: {} },
      { ...base, priority: 'critical' },
      { ...base, category: 'other-stuff' },
      { ...base, tags: ['x'.repeat(51)] },
      { ...base, status: 'open' },
    ];
    for (const body of cases) {
      const res = await app.call('POST', '/tickets', { key: t.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    const unknownMember = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: { ...base, assignedTo: crypto.randomUUID() },
    });
    expect(unknownMember.status).toBe(422);
    expect(unknownMember.body.error.code).toBe('ticket.unknown_member');
    // Refused inside the create's transaction: nothing written, the list counts given back.
    expect((await app.call('GET', '/tickets', { key: t.liveKey })).body).toMatchObject({ total: 0, tickets: [] });
  });

  it('needs tickets:write', async () => {
    const t = await createTenant();
    const key = await t.key({ scopes: ['tickets:read'] });
    const res = await app.call('POST', '/tickets', {
      key,
      body: { subject: 'x', body: 'y', customer: { email: customerEmail() } },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth.forbidden');
  });
});

describe('ticket quota', () => {
  it('pauses creation on Free at the allowance with reason free_allowance; sandbox never counts', async () => {
    const t = await createTenant({ plan: 'free', limits: { tickets: 2 } });
    await createTicket(app, t.liveKey);
    await createTicket(app, t.liveKey);
    const refused = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: { subject: 'x', body: 'y', customer: { email: customerEmail() } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'plan.ticket_limit',
      details: { current: 2, allowance: 2, reason: 'free_allowance' },
    });
    // Sandbox tickets are exempt.
    await createTicket(app, t.sandboxKey);
    await createTicket(app, t.liveKey, {}, { 'Service-Environment': 'sandbox' });
    // The refused create left no ticket behind.
    const list = await app.call('GET', '/tickets', { key: t.liveKey });
    expect(list.body.total).toBe(2);
  });

  it('accepts overage on a paid plan up to 3x the allowance, then refuses with reason ceiling', async () => {
    const t = await createTenant({ plan: 'starter', limits: { tickets: 2 } });
    for (let i = 0; i < 6; i++) await createTicket(app, t.liveKey);
    const refused = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: { subject: 'x', body: 'y', customer: { email: customerEmail() } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'plan.ticket_limit',
      details: { current: 6, allowance: 2, reason: 'ceiling' },
    });
  });
});

describe('GET /tickets/{ticketId}', () => {
  it('is 404 for another project, the other environment, an unknown id and a malformed id', async () => {
    const t = await createTenant({ projects: ['a', 'b'] });
    const live = await createTicket(app, t.liveKey, {}, { 'Service-Project': 'a' });
    const sandbox = await createTicket(app, t.sandboxKey, {}, { 'Service-Project': 'a' });
    const other = await createTenant();
    const cases: [string, string, Record<string, string>][] = [
      [live.id, t.liveKey, { 'Service-Project': 'b' }],
      [live.id, t.sandboxKey, { 'Service-Project': 'a' }],
      [live.id, t.liveKey, { 'Service-Project': 'a', 'Service-Environment': 'sandbox' }],
      [sandbox.id, t.liveKey, { 'Service-Project': 'a' }],
      [live.id, other.liveKey, {}],
      [crypto.randomUUID(), t.liveKey, { 'Service-Project': 'a' }],
      ['not-a-uuid', t.liveKey, { 'Service-Project': 'a' }],
    ];
    for (const [id, key, headers] of cases) {
      const res = await app.call('GET', `/tickets/${id}`, { key, headers });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect(
      (await app.call('GET', `/tickets/${live.id}`, { key: t.liveKey, headers: { 'Service-Project': 'a' } })).status,
    ).toBe(200);
    expect(
      (await app.call('GET', `/tickets/${sandbox.id}`, { key: t.sandboxKey, headers: { 'Service-Project': 'a' } }))
        .status,
    ).toBe(200);
  });
});

describe('PATCH /tickets/{ticketId}', () => {
  it('moves between every status; resolved fires ticket.resolved, closed sets closedAt', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const moves = [
      'open',
      'pending',
      'resolved',
      'closed',
      'new',
      'closed',
      'open',
      'resolved',
      'pending',
      'new',
    ] as const;
    let previous = 'new';
    for (const status of moves) {
      const res = await app.call('PATCH', `/tickets/${c.id}`, { key: t.liveKey, body: { status } });
      expect(res.status, `${previous} -> ${status}`).toBe(200);
      expect(res.body.status).toBe(status);
      if (status === 'closed') expect(Date.parse(res.body.closedAt)).not.toBeNaN();
      else expect(res.body.closedAt).toBeNull();
      previous = status;
    }
    const resolved = (await eventsFor(c.id)).filter((e) => e.name === 'ticket.resolved');
    expect(resolved).toHaveLength(2);
    expect(resolved[0]!.data).toEqual({
      ticket: { id: c.id, number: c.number, subject: c.subject, status: 'resolved', priority: 'medium' },
      customer: c.customer,
    });
  });

  it('updates priority, category and assignee, answers the detail, and unassigns with null', async () => {
    const t = await createTenant();
    const m = await t.member();
    const c = await createTicket(app, t.liveKey);
    await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'note', visibility: 'internal' },
    });
    const res = await app.call('PATCH', `/tickets/${c.id}`, {
      key: t.liveKey,
      // In capitals: the same member (UUIDs are case-insensitive), stored and answered in lower case.
      body: { priority: 'high', category: 'bug', assignedTo: m.memberId.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: c.id,
      priority: 'high',
      category: 'bug',
      assignedTo: m.memberId,
      status: 'new',
      customer: c.customer,
    });
    expect(res.body.messages).toHaveLength(2);
    const unassigned = await app.call('PATCH', `/tickets/${c.id}`, { key: t.liveKey, body: { assignedTo: null } });
    expect(unassigned.body.assignedTo).toBeNull();
    expect((await emitted(app)).filter((e) => e.name === 'ticket.resolved' && e.data.ticket.id === c.id)).toHaveLength(
      0,
    );
  });

  it('refuses unknown fields, bad values, an empty body and unknown members with 422', async () => {
    const t = await createTenant();
    const other = await createTenant();
    const stranger = await other.member();
    const c = await createTicket(app, t.liveKey);
    for (const body of [{ subject: 'new' }, { status: 'archived' }, {}, { assignedTo: 'nobody' }]) {
      const res = await app.call('PATCH', `/tickets/${c.id}`, { key: t.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    const res = await app.call('PATCH', `/tickets/${c.id}`, {
      key: t.liveKey,
      body: { assignedTo: stranger.memberId },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('ticket.unknown_member');
  });

  it('is 404 across projects and environments', async () => {
    const t = await createTenant({ projects: ['a', 'b'] });
    const c = await createTicket(app, t.liveKey, {}, { 'Service-Project': 'a' });
    for (const headers of crossTenant) {
      const res = await app.call('PATCH', `/tickets/${c.id}`, { key: t.liveKey, headers, body: { status: 'open' } });
      expect(res.status).toBe(404);
    }
    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey, headers: { 'Service-Project': 'a' } });
    expect(detail.body.status).toBe('new');
  });
});

describe('tags', () => {
  it('adds idempotently, keeps the first case, compares case-insensitively and removes', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const add = (tag: string) => app.call('POST', `/tickets/${c.id}/tags`, { key: t.liveKey, body: { tag } });
    expect((await add('  Urgent ')).body).toEqual({ id: c.id, tags: ['Urgent'] });
    expect((await add('urgent')).body).toEqual({ id: c.id, tags: ['Urgent'] });
    expect((await add('billing')).body).toEqual({ id: c.id, tags: ['Urgent', 'billing'] });
    const removed = await app.call('DELETE', `/tickets/${c.id}/tags`, { key: t.liveKey, query: { tag: 'URGENT' } });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: c.id, tags: ['billing'] });
    const again = await app.call('DELETE', `/tickets/${c.id}/tags`, { key: t.liveKey, query: { tag: 'urgent' } });
    expect(again.body).toEqual({ id: c.id, tags: ['billing'] });
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.tags).toEqual(['billing']);
  });

  it('validates the tag and is 404 across projects and environments', async () => {
    const t = await createTenant({ projects: ['a', 'b'] });
    const c = await createTicket(app, t.liveKey, {}, { 'Service-Project': 'a' });
    for (const tag of ['', '   ', 'x'.repeat(51), 'a\nb', 'a\u0000b']) {
      const res = await app.call('POST', `/tickets/${c.id}/tags`, {
        key: t.liveKey,
        headers: { 'Service-Project': 'a' },
        body: { tag },
      });
      expect(res.status).toBe(422);
    }
    expect(
      (await app.call('DELETE', `/tickets/${c.id}/tags`, { key: t.liveKey, headers: { 'Service-Project': 'a' } }))
        .status,
    ).toBe(422);
    for (const headers of crossTenant) {
      expect(
        (await app.call('POST', `/tickets/${c.id}/tags`, { key: t.liveKey, headers, body: { tag: 'x' } })).status,
      ).toBe(404);
      expect(
        (await app.call('DELETE', `/tickets/${c.id}/tags`, { key: t.liveKey, headers, query: { tag: 'x' } })).status,
      ).toBe(404);
    }
    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey, headers: { 'Service-Project': 'a' } });
    expect(detail.body.tags).toEqual([]);
  });
});

describe('latestTicketsForCustomer', () => {
  it("returns the customer's latest tickets, newest first, with current status, in this project and environment only", async () => {
    const t = await createTenant();
    const email = customerEmail();
    const first = await createTicket(app, t.liveKey, { subject: 'First', customer: { email } });
    const second = await createTicket(app, t.liveKey, { subject: 'Second', customer: { email } });
    const third = await createTicket(app, t.liveKey, { subject: 'Third', customer: { email } });
    await createTicket(app, t.liveKey, { subject: 'Someone else' });
    await createTicket(app, t.sandboxKey, { subject: 'Sandbox', customer: { email } });
    await app.call('PATCH', `/tickets/${first.id}`, { key: t.liveKey, body: { status: 'resolved' } });
    await app.call('DELETE', `/tickets/${third.id}`, { key: t.liveKey });
    const ctx = await tenantContext(t);
    const { customer } = await matchOrCreateCustomer(ctx, { email });
    const latest = await latestTicketsForCustomer(ctx, customer.id, 10);
    expect(latest).toEqual([
      { id: second.id, number: second.number, subject: 'Second', status: 'new', createdAt: expect.any(String) },
      { id: first.id, number: first.number, subject: 'First', status: 'resolved', createdAt: expect.any(String) },
    ]);
    expect(await latestTicketsForCustomer(ctx, customer.id, 1)).toHaveLength(1);
  });
});

describe('GET /members', () => {
  it('lists the account members added with the admin CLI', async () => {
    const t = await createTenant();
    const a = await t.member({ name: 'Alice', role: 'admin' });
    const b = await t.member({ name: 'Bob' });
    const res = await app.call('GET', '/members', { key: t.liveKey });
    expect(res.status).toBe(200);
    expect(res.body.members).toHaveLength(2);
    expect(res.body.members).toEqual(
      expect.arrayContaining([
        { id: a.memberId, email: a.email, name: 'Alice', role: 'admin' },
        { id: b.memberId, email: b.email, name: 'Bob', role: 'agent' },
      ]),
    );
    const other = await createTenant();
    expect((await app.call('GET', '/members', { key: other.liveKey })).body.members).toEqual([]);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';

const app = await startTestApp();
const unique = (tag = 'c') => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

const create = async (t: TenantFixture, body: Record<string, unknown>, key = t.liveKey) => {
  const res = await app.call('POST', '/customers', { key, body });
  expect(res.status).toBe(200);
  return res.body;
};

describe('POST /customers and GET /customers/{id}', () => {
  it('creates a customer with a lower-cased email and returns the whole record', async () => {
    const t = await createTenant();
    const email = unique();
    const created = await create(t, {
      email: `  ${email.toUpperCase()} `,
      name: 'Ada Lovelace',
      externalId: 'usr_1',
      phone: '+44 20 7946 0000',
      metadata: { plan: 'gold' },
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email,
      name: 'Ada Lovelace',
      externalId: 'usr_1',
      phone: '+44 20 7946 0000',
      metadata: { plan: 'gold' },
      ticketCount: 0,
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
    });
    const got = await app.call('GET', `/customers/${created.id}`, { key: t.liveKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...created, tickets: [], feedback: [] });
  });

  it('refuses an existing email (any case) or externalId with a code naming which', async () => {
    const t = await createTenant();
    const email = unique();
    await create(t, { email, externalId: 'ext-1' });
    const dupEmail = await app.call('POST', '/customers', { key: t.liveKey, body: { email: email.toUpperCase() } });
    expect(dupEmail.status).toBe(422);
    expect(dupEmail.body.error.code).toBe('customer.email_taken');
    const dupExt = await app.call('POST', '/customers', {
      key: t.liveKey,
      body: { email: unique(), externalId: 'ext-1' },
    });
    expect(dupExt.status).toBe(422);
    expect(dupExt.body.error.code).toBe('customer.external_id_taken');
    // externalIds are the caller's own and case-sensitive
    await create(t, { email: unique(), externalId: 'EXT-1' });
    // the refused create left no trace: its email is still free
    const list = await app.call('GET', '/customers', { key: t.liveKey });
    expect(list.body.total).toBe(2);
  });

  it('keeps email and externalId unique under concurrent creates', async () => {
    const t = await createTenant();
    const email = unique();
    const sameEmail = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        app.call('POST', '/customers', { key: t.liveKey, body: { email, externalId: `e-${i}` } }),
      ),
    );
    expect(sameEmail.filter((r) => r.status === 200)).toHaveLength(1);
    expect(sameEmail.filter((r) => r.status === 422).map((r) => r.body.error.code)).toEqual(
      Array(7).fill('customer.email_taken'),
    );

    const sameExt = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.call('POST', '/customers', { key: t.liveKey, body: { email: unique(), externalId: 'shared' } }),
      ),
    );
    expect(sameExt.filter((r) => r.status === 200)).toHaveLength(1);
    expect(sameExt.filter((r) => r.status === 422).map((r) => r.body.error.code)).toEqual(
      Array(7).fill('customer.external_id_taken'),
    );

    const list = await app.call('GET', '/customers', { key: t.liveKey, query: { limit: 100 } });
    expect(list.body.total).toBe(2);
    // the losers' externalIds were not left reserved
    const winner = sameEmail.find((r) => r.status === 200)!.body.externalId;
    const loserExternalId = winner === 'e-0' ? 'e-1' : 'e-0';
    expect((await create(t, { email: unique(), externalId: loserExternalId })).externalId).toBe(loserExternalId);
  });

  it('validates the body: unknown fields, bad email, more than 50 metadata keys, a __proto__ key', async () => {
    const t = await createTenant();
    const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    for (const body of [
      { email: unique(), nickname: 'x' },
      { email: 'not-an-email' },
      { email: unique(), metadata },
      // JSON keeps it as a key; JavaScript copies would make it the prototype (it was a 500).
      { email: unique(), metadata: JSON.parse('{"__proto__":"x","plan":"pro"}') },
      {},
    ]) {
      const res = await app.call('POST', '/customers', { key: t.liveKey, body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    // A key out of bounds is told in words, never by the pattern that checks it.
    for (const key of ['', 'k'.repeat(101)]) {
      const res = await app.call('POST', '/customers', {
        key: t.liveKey,
        body: { email: unique(), metadata: { [key]: 'v' } },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.fields).toEqual([
        { field: 'metadata', in: 'body', message: 'Keys are 1 to 100 characters' },
      ]);
    }
  });
});

describe('GET /customers', () => {
  it('lists newest first, searches email, name and externalId case-insensitively, filters by exact externalId', async () => {
    const t = await createTenant();
    const a = await create(t, { email: unique('alpha'), name: 'Grace Hopper', externalId: 'ACME-1' });
    const b = await create(t, { email: unique('beta'), name: 'Alan Turing' });
    const c = await create(t, { email: unique('gamma'), externalId: 'acme-2' });

    const all = await app.call('GET', '/customers', { key: t.liveKey });
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 25 });
    expect(all.body.customers.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);

    const ids = async (query: Record<string, string | number>) =>
      (await app.call('GET', '/customers', { key: t.liveKey, query })).body.customers.map((x: { id: string }) => x.id);
    expect(await ids({ search: 'HOPPER' })).toEqual([a.id]);
    expect(await ids({ search: 'BETA-' })).toEqual([b.id]);
    expect(await ids({ search: 'acme' })).toEqual([c.id, a.id]);
    expect(await ids({ externalId: 'ACME-1' })).toEqual([a.id]);
    expect(await ids({ externalId: 'acme-1' })).toEqual([]);
    expect(await ids({ limit: 2, page: 2 })).toEqual([a.id]);

    const bad = await app.call('GET', '/customers', { key: t.liveKey, query: { limit: 101 } });
    expect(bad.status).toBe(422);
  });
});

describe('PATCH /customers/{id}', () => {
  it('updates the profile, clears fields with null, and refuses a different email', async () => {
    const t = await createTenant();
    const email = unique();
    const c = await create(t, { email, name: 'Old', phone: '123', metadata: { a: '1' } });

    const changed = await app.call('PATCH', `/customers/${c.id}`, {
      key: t.liveKey,
      body: { email: email.toUpperCase(), name: 'New', phone: null, metadata: { b: '2' } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: c.id,
      email,
      name: 'New',
      phone: null,
      metadata: { b: '2' },
      externalId: null,
    });

    const refused = await app.call('PATCH', `/customers/${c.id}`, {
      key: t.liveKey,
      body: { email: unique(), name: 'Other' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('customer.email_immutable');
    const got = await app.call('GET', `/customers/${c.id}`, { key: t.liveKey });
    expect(got.body).toMatchObject({ email, name: 'New', phone: null, metadata: { b: '2' } });
  });

  it('moves an externalId: the old one becomes free, a taken one is refused', async () => {
    const t = await createTenant();
    const a = await create(t, { email: unique(), externalId: 'one' });
    await create(t, { email: unique(), externalId: 'two' });

    const taken = await app.call('PATCH', `/customers/${a.id}`, { key: t.liveKey, body: { externalId: 'two' } });
    expect(taken.status).toBe(422);
    expect(taken.body.error.code).toBe('customer.external_id_taken');

    const moved = await app.call('PATCH', `/customers/${a.id}`, { key: t.liveKey, body: { externalId: 'three' } });
    expect(moved.body.externalId).toBe('three');
    const reuse = await create(t, { email: unique(), externalId: 'one' });
    expect(reuse.externalId).toBe('one');
    const byExt = await app.call('GET', '/customers', { key: t.liveKey, query: { externalId: 'three' } });
    expect(byExt.body.customers.map((x: { id: string }) => x.id)).toEqual([a.id]);

    const cleared = await app.call('PATCH', `/customers/${a.id}`, { key: t.liveKey, body: { externalId: null } });
    expect(cleared.body.externalId).toBeNull();
    expect((await create(t, { email: unique(), externalId: 'three' })).externalId).toBe('three');
  });
});

describe('DELETE /customers/{id}', () => {
  it('deletes the customer, frees the email, and leaves their tickets untouched', async () => {
    const t = await createTenant();
    const email = unique();
    const ticket = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: { subject: 'Printer on fire', body: 'Help', customer: { email, name: 'Pat' } },
    });
    expect(ticket.status).toBe(200);
    const [customer] = (await app.call('GET', '/customers', { key: t.liveKey, query: { search: email } })).body
      .customers;
    expect(customer).toMatchObject({ email, name: 'Pat', ticketCount: 1 });
    const detail = await app.call('GET', `/customers/${customer.id}`, { key: t.liveKey });
    expect(detail.body.tickets).toEqual([
      {
        id: ticket.body.id,
        number: ticket.body.number,
        subject: 'Printer on fire',
        status: 'new',
        createdAt: expect.any(String),
      },
    ]);

    const del = await app.call('DELETE', `/customers/${customer.id}`, { key: t.liveKey });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: customer.id, deleted: true });
    expect((await app.call('GET', `/customers/${customer.id}`, { key: t.liveKey })).status).toBe(404);
    expect((await app.call('DELETE', `/customers/${customer.id}`, { key: t.liveKey })).status).toBe(404);

    const after = await app.call('GET', `/tickets/${ticket.body.id}`, { key: t.liveKey });
    expect(after.status).toBe(200);
    expect(after.body.customer).toMatchObject({ email, name: 'Pat' });
    expect((await create(t, { email })).email).toBe(email);
  });
});

describe('tenancy', () => {
  it('answers 404 for an id from another project or environment, and for a malformed id', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const c = await create(t, { email: unique() }, await t.key({ projects: ['one'] }));
    const other = { key: t.liveKey, headers: { 'Service-Project': 'two' } };
    const sandbox = { key: t.liveKey, headers: { 'Service-Project': 'one', 'Service-Environment': 'sandbox' } };
    for (const opts of [other, sandbox]) {
      expect((await app.call('GET', `/customers/${c.id}`, opts)).status).toBe(404);
      expect((await app.call('PATCH', `/customers/${c.id}`, { ...opts, body: { name: 'x' } })).status).toBe(404);
      expect((await app.call('DELETE', `/customers/${c.id}`, opts)).status).toBe(404);
      expect((await app.call('GET', '/customers', opts)).body.total).toBe(0);
    }
    expect(
      (await app.call('GET', `/customers/${c.id}`, { key: t.liveKey, headers: { 'Service-Project': 'one' } })).status,
    ).toBe(200);
    expect(
      (await app.call('GET', '/customers/not-a-uuid', { key: t.liveKey, headers: { 'Service-Project': 'one' } }))
        .status,
    ).toBe(404);
    expect(
      (await app.call('GET', `/customers/${randomUUID()}`, { key: t.liveKey, headers: { 'Service-Project': 'one' } }))
        .status,
    ).toBe(404);
  });

  it('needs the customers scopes', async () => {
    const t = await createTenant();
    const readOnly = await t.key({ scopes: ['customers:read'] });
    expect((await app.call('GET', '/customers', { key: readOnly })).status).toBe(200);
    const res = await app.call('POST', '/customers', { key: readOnly, body: { email: unique() } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth.forbidden');
  });
});

describe('PATCH /customers/{id}: empty and unchanged', () => {
  it('refuses arrays as metadata on create and update, and an empty PATCH', async () => {
    const t = await createTenant();
    const post = await app.call('POST', '/customers', {
      key: t.liveKey,
      body: { email: unique(), metadata: ['a', 'b'] },
    });
    expect(post.status).toBe(422);
    expect(post.body.error.details.fields[0].field).toBe('metadata');
    const c = await create(t, { email: unique(), metadata: { a: '1' } });
    const patched = await app.call('PATCH', `/customers/${c.id}`, { key: t.liveKey, body: { metadata: ['x'] } });
    expect(patched.status).toBe(422);
    const control = await app.call('PATCH', `/customers/${c.id}`, {
      key: t.liveKey,
      body: { metadata: { a: 'x\u0000' } },
    });
    expect(control.status).toBe(422);
    const empty = await app.call('PATCH', `/customers/${c.id}`, { key: t.liveKey, body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toContain('Give at least one of name, externalId, phone, metadata');
    expect((await app.call('GET', `/customers/${c.id}`, { key: t.liveKey })).body).toMatchObject({
      metadata: { a: '1' },
      updatedAt: c.updatedAt,
    });
  });

  it('writes nothing and fires no customer.updated when every value sent equals the stored one', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: receiver.url, events: ['customer.updated'] } });
    const email = unique();
    const c = await create(t, { email, name: 'Eve', externalId: 'e-1', metadata: { a: '1', b: '2' } });
    for (const body of [
      { name: 'Eve' },
      { email: email.toUpperCase(), externalId: 'e-1', phone: null },
      { metadata: { b: '2', a: '1' } },
    ]) {
      const same = await app.call('PATCH', `/customers/${c.id}`, { key: t.liveKey, body });
      expect(same.status).toBe(200);
      expect(same.body).toEqual(c);
    }
    const changed = await app.call('PATCH', `/customers/${c.id}`, {
      key: t.liveKey,
      body: { name: 'Eve', phone: '42' },
    });
    expect(changed.body).toMatchObject({ name: 'Eve', phone: '42' });
    expect(changed.body.updatedAt > c.updatedAt).toBe(true);
    await app.drain();
    await receiver.waitFor(1);
    expect(receiver.requests.map((r) => r.json.data)).toEqual([{ customer: changed.body }]);
  });
});

describe('events', () => {
  it('fires customer.created and customer.updated with the record as the API returns it', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: receiver.url, events: ['customer.created', 'customer.updated'] },
    });
    expect(hook.status).toBe(200);
    const c = await create(t, { email: unique(), name: 'Eve' });
    const updated = await app.call('PATCH', `/customers/${c.id}`, { key: t.liveKey, body: { name: 'Eve Online' } });
    await app.drain();
    await receiver.waitFor(2);
    const byEvent = Object.fromEntries(receiver.requests.map((r) => [r.json.event, r.json.data]));
    expect(byEvent['customer.created']).toEqual({ customer: c });
    expect(byEvent['customer.updated']).toEqual({ customer: updated.body });
  });
});

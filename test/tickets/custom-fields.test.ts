import { describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from './event-spy.js';
import { customerEmail } from './helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) => (await import('./event-spy.js')).spiedRelay(original));

const app = await startTestApp();

const define = (t: TenantFixture, body: Record<string, unknown>, key = t.liveKey) =>
  app.call('POST', '/ticket-fields', { key, body });
const open = (t: TenantFixture, customFields?: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  app.call('POST', '/tickets', {
    key: t.liveKey,
    body: {
      subject: 'Order problem',
      body: 'Help',
      customer: { email: customerEmail() },
      ...(customFields ? { customFields } : {}),
      ...extra,
    },
  });
const list = (t: TenantFixture, query: Record<string, string>) =>
  app.call('GET', '/tickets', { key: t.liveKey, query });
const ids = (res: { body: { tickets: { id: string }[] } }) => res.body.tickets.map((x) => x.id).sort();

async function shop() {
  const t = await createTenant();
  for (const body of [
    { key: 'order_id', label: 'Order', type: 'text', filterable: true },
    { key: 'amount', label: 'Amount', type: 'number', filterable: true },
    { key: 'due', label: 'Due', type: 'date', filterable: true },
    { key: 'seen_at', label: 'Seen at', type: 'datetime', filterable: true },
    { key: 'vip', label: 'VIP', type: 'boolean', filterable: true },
    { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro', 'team'], filterable: true },
    { key: 'regions', label: 'Regions', type: 'multi-select', options: ['eu', 'us', 'apac'], filterable: true },
    { key: 'site', label: 'Site', type: 'url' },
    { key: 'contact', label: 'Contact', type: 'email', filterable: true },
  ])
    expect((await define(t, body)).status, body.key).toBe(200);
  return t;
}

describe('ticket field definitions', () => {
  it('creates, lists, renames and deletes fields; refuses what a definition cannot be', async () => {
    const t = await createTenant();
    const created = await define(t, { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'] });
    expect(created.body).toMatchObject({
      key: 'plan',
      type: 'select',
      options: ['free', 'pro'],
      required: false,
      valueCount: 0,
    });
    expect((await define(t, { key: 'plan', label: 'Again', type: 'text' })).body.error.code).toBe(
      'ticket_field.key_taken',
    );
    for (const bad of [
      { key: 'Plan', label: 'x', type: 'text' },
      { key: 'x', label: 'x', type: 'colour' },
      { key: 'pick', label: 'x', type: 'select' },
      { key: 'dup', label: 'x', type: 'select', options: ['a', 'a'] },
    ])
      expect((await define(t, bad)).status, JSON.stringify(bad)).toBe(422);
    // Options belong to selects: another type keeps none.
    expect((await define(t, { key: 'note', label: 'Note', type: 'text', options: ['a'] })).body.options).toBeNull();
    const renamed = await app.call('PATCH', '/ticket-fields/plan', { key: t.liveKey, body: { label: 'Subscription' } });
    expect(renamed.body.label).toBe('Subscription');
    expect(
      (await app.call('GET', '/ticket-fields', { key: t.liveKey })).body.fields.map((f: { key: string }) => f.key),
    ).toEqual(['plan', 'note']);
    // Another environment and another project see none of it.
    expect((await app.call('GET', '/ticket-fields/plan', { key: t.sandboxKey })).status).toBe(404);
    const other = await createTenant();
    expect((await app.call('GET', '/ticket-fields/plan', { key: other.liveKey })).status).toBe(404);
    expect((await app.call('DELETE', '/ticket-fields/plan', { key: other.liveKey })).status).toBe(404);
    expect((await app.call('DELETE', '/ticket-fields/plan', { key: t.liveKey })).body).toEqual({
      deleted: true,
      key: 'plan',
    });
    expect((await app.call('GET', '/ticket-fields/plan', { key: t.liveKey })).status).toBe(404);
  });

  it('allows at most 50 fields per project', async () => {
    const t = await createTenant();
    for (let i = 0; i < 50; i++)
      expect((await define(t, { key: `f${i}`, label: `F${i}`, type: 'text' })).status).toBe(200);
    const over = await define(t, { key: 'f50', label: 'F50', type: 'text' });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'ticket_field.limit', details: { limit: 50 } });
  });
});

describe('custom field values on tickets', () => {
  it('validates each value by type, naming the field, and returns the values on every ticket', async () => {
    const t = await shop();
    const res = await open(t, {
      order_id: ' A-100 ',
      amount: 49.5,
      due: '2026-12-01',
      seen_at: '2026-11-26T10:00:00+01:00',
      vip: true,
      plan: 'pro',
      // Four entries for three options: repeats collapse before anything counts them.
      regions: ['eu', 'us', 'eu', 'us'],
      site: 'https://shop.example/orders/100',
      contact: 'Buyer@Example.COM',
    });
    expect(res.status).toBe(200);
    const values = {
      order_id: 'A-100',
      amount: 49.5,
      due: '2026-12-01',
      seen_at: '2026-11-26T09:00:00.000Z',
      vip: true,
      plan: 'pro',
      regions: ['eu', 'us'],
      site: 'https://shop.example/orders/100',
      contact: 'buyer@example.com',
    };
    expect(res.body.customFields).toEqual(values);
    expect((await app.call('GET', `/tickets/${res.body.id}`, { key: t.liveKey })).body.customFields).toEqual(values);
    const row = (await list(t, {})).body.tickets.find((x: { id: string }) => x.id === res.body.id);
    expect(row.customFields).toEqual(values);
    const created = (await emitted(app)).find((e) => e.name === 'ticket.created' && e.data.ticket.id === res.body.id);
    expect(created!.data.ticket.customFields).toEqual(values);

    for (const [key, value] of [
      ['amount', '12'],
      ['due', '2026-02-30'],
      ['seen_at', 'yesterday'],
      ['vip', 'yes'],
      ['plan', 'enterprise'],
      ['regions', ['mars']],
      ['site', 'javascript:alert(1)'],
      ['contact', 'not-an-address'],
      ['unknown_key', 'x'],
      ['order_id', 'x'.repeat(501)],
    ] as const) {
      const bad = await open(t, { [key]: value });
      expect(bad.status, key).toBe(422);
      expect(bad.body.error.details.fields[0].field, key).toBe(`customFields.${key}`);
    }
  });

  it('refuses values the table cannot store or order, and keeps long and unusual text filterable', async () => {
    const t = await shop();
    for (const [key, value] of [
      ['amount', 1e308],
      ['amount', 2 ** 53 + 2],
      ['amount', 5e-324],
      ['order_id', '\ud800'],
      ['seen_at', '2026-01-05T10:00:00+05'],
      ['seen_at', '2026-02-30T10:00:00Z'],
      ['seen_at', '9999-12-31T23:00:00-05:00'],
      ['due', '2026-13-01'],
    ] as const) {
      const res = await open(t, { [key]: value });
      expect(res.status, `${key} ${String(value)}`).toBe(422);
      expect(res.body.error.details.fields[0].field).toBe(`customFields.${key}`);
    }
    const long = 'é'.repeat(500);
    const spaced = Array.from({ length: 250 }, () => 'a').join(' ');
    const a = (await open(t, { order_id: long, contact: 'x@example.com' })).body.id;
    const b = (await open(t, { order_id: spaced, regions: [] })).body.id;
    expect(ids(await list(t, { 'field.order_id': long }))).toEqual([a]);
    expect(ids(await list(t, { 'field.order_id': spaced }))).toEqual([b]);
    // An empty multi-select holds no value.
    expect((await app.call('GET', `/tickets/${b}`, { key: t.liveKey })).body.customFields).toEqual({
      order_id: spaced,
    });
    // An inverted range holds nothing; impossible dates are 422.
    expect((await list(t, { 'field.amount.gte': '5', 'field.amount.lte': '1' })).body.tickets).toEqual([]);
    expect((await list(t, { 'field.due.gte': '2026-02-30' })).status).toBe(422);
    expect((await list(t, { 'field.seen_at.gte': '2026-01-05T10:00:00+05' })).status).toBe(422);
    // A key every object answers to is no field key.
    expect((await define(t, { key: 'constructor', label: 'x', type: 'text' })).status).toBe(422);
  });

  it('finds tickets holding an option removed since', async () => {
    const t = await shop();
    const pro = (await open(t, { plan: 'pro' })).body.id;
    await app.call('PATCH', '/ticket-fields/plan', { key: t.liveKey, body: { options: ['free', 'team'] } });
    expect(ids(await list(t, { 'field.plan': 'pro' }))).toEqual([pro]);
  });

  it('requires required fields on create (API), sets and removes values on update, and fires ticket.updated', async () => {
    const t = await createTenant();
    await define(t, { key: 'order_id', label: 'Order', type: 'text', required: true });
    await define(t, { key: 'note', label: 'Note', type: 'text' });
    const missing = await open(t);
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.fields[0].field).toBe('customFields.order_id');
    const ok = await open(t, { order_id: 'B-1' });
    expect(ok.status).toBe(200);
    const patched = await app.call('PATCH', `/tickets/${ok.body.id}`, {
      key: t.liveKey,
      body: { customFields: { note: 'Called twice', order_id: 'B-2' } },
    });
    expect(patched.body.customFields).toEqual({ order_id: 'B-2', note: 'Called twice' });
    const cleared = await app.call('PATCH', `/tickets/${ok.body.id}`, {
      key: t.liveKey,
      body: { customFields: { note: null } },
    });
    expect(cleared.body.customFields).toEqual({ order_id: 'B-2' });
    const updates = (await emitted(app)).filter((e) => e.name === 'ticket.updated' && e.data.ticket.id === ok.body.id);
    expect(updates.map((e) => e.data.changes)).toEqual([
      { 'customFields.order_id': { from: 'B-1', to: 'B-2' }, 'customFields.note': { from: null, to: 'Called twice' } },
      { 'customFields.note': { from: 'Called twice', to: null } },
    ]);
  });

  it('refuses a type change while values exist, and keeps values through a new label', async () => {
    const t = await createTenant();
    await define(t, { key: 'amount', label: 'Amount', type: 'number' });
    const ticket = await open(t, { amount: 5 });
    expect((await app.call('GET', '/ticket-fields/amount', { key: t.liveKey })).body.valueCount).toBe(1);
    const change = await app.call('PATCH', '/ticket-fields/amount', { key: t.liveKey, body: { type: 'text' } });
    expect(change.status).toBe(422);
    expect(change.body.error).toMatchObject({ code: 'ticket_field.type_in_use', details: { valueCount: 1 } });
    await app.call('PATCH', '/ticket-fields/amount', { key: t.liveKey, body: { label: 'Total' } });
    expect((await app.call('GET', `/tickets/${ticket.body.id}`, { key: t.liveKey })).body.customFields).toEqual({
      amount: 5,
    });
    await app.call('PATCH', `/tickets/${ticket.body.id}`, { key: t.liveKey, body: { customFields: { amount: null } } });
    expect((await app.call('PATCH', '/ticket-fields/amount', { key: t.liveKey, body: { type: 'text' } })).status).toBe(
      200,
    );
  });

  it("gives a deleted ticket's values back: the count falls, the index forgets them, the type may change", async () => {
    const t = await createTenant();
    await define(t, {
      key: 'regions',
      label: 'Regions',
      type: 'multi-select',
      options: ['eu', 'us'],
      filterable: true,
    });
    const kept = await open(t, { regions: ['eu'] });
    const gone = await open(t, { regions: ['eu', 'us'] });
    expect((await app.call('GET', '/ticket-fields/regions', { key: t.liveKey })).body.valueCount).toBe(2);
    expect((await app.call('DELETE', `/tickets/${gone.body.id}`, { key: t.liveKey })).status).toBe(200);
    await app.drain();
    expect((await app.call('GET', '/ticket-fields/regions', { key: t.liveKey })).body.valueCount).toBe(1);
    expect(ids(await list(t, { 'field.regions': 'eu' }))).toEqual([kept.body.id]);
    await app.call('DELETE', `/tickets/${kept.body.id}`, { key: t.liveKey });
    await app.drain();
    expect((await app.call('PATCH', '/ticket-fields/regions', { key: t.liveKey, body: { type: 'text' } })).status).toBe(
      200,
    );
  });

  it('deletes a field: its values leave the tickets in the background, then the key is free', async () => {
    const t = await createTenant();
    await define(t, { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], filterable: true });
    const tickets = [await open(t, { plan: 'pro' }), await open(t, { plan: 'free' }), await open(t)];
    expect((await app.call('DELETE', '/ticket-fields/plan', { key: t.liveKey })).status).toBe(200);
    // Until its values are gone the key stays taken.
    expect((await define(t, { key: 'plan', label: 'Plan', type: 'text' })).body.error?.code).toBe(
      'ticket_field.key_taken',
    );
    await app.drain();
    for (const x of tickets)
      expect((await app.call('GET', `/tickets/${x.body.id}`, { key: t.liveKey })).body.customFields).toEqual({});
    const again = await define(t, { key: 'plan', label: 'Plan', type: 'text', filterable: true });
    expect(again.status).toBe(200);
    expect(again.body.valueCount).toBe(0);
    // The old values are gone from the index too: a filter on the new field finds nothing of them.
    expect((await list(t, { 'field.plan': 'pro' })).body.tickets).toEqual([]);
  });
});

describe('GET /tickets?field.<key>=', () => {
  it('filters by equality, ranges and lists, combined with each other and with other filters', async () => {
    const t = await shop();
    const a = (
      await open(t, { amount: 10, plan: 'pro', regions: ['eu'], due: '2026-01-10', vip: true, order_id: 'A 1/2' })
    ).body.id;
    const b = (await open(t, { amount: -3.5, plan: 'free', regions: ['us', 'apac'], due: '2026-03-01', vip: false }))
      .body.id;
    const c = (
      await open(t, { amount: 250, plan: 'team', regions: ['eu', 'us'], due: '2025-12-31' }, { priority: 'urgent' })
    ).body.id;
    const d = (await open(t)).body.id;
    expect(ids(await list(t, { 'field.plan': 'pro' }))).toEqual([a]);
    expect(ids(await list(t, { 'field.plan.in': 'pro,team' }))).toEqual([a, c].sort());
    expect(ids(await list(t, { 'field.regions': 'eu' }))).toEqual([a, c].sort());
    expect(ids(await list(t, { 'field.amount.gte': '0' }))).toEqual([a, c].sort());
    expect(ids(await list(t, { 'field.amount.lte': '10' }))).toEqual([a, b].sort());
    expect(ids(await list(t, { 'field.amount.gte': '-3.5', 'field.amount.lte': '-3.5' }))).toEqual([b]);
    expect(ids(await list(t, { 'field.amount': '250' }))).toEqual([c]);
    expect(ids(await list(t, { 'field.due.gte': '2026-01-01', 'field.due.lte': '2026-12-31' }))).toEqual([a, b].sort());
    expect(ids(await list(t, { 'field.vip': 'false' }))).toEqual([b]);
    expect(ids(await list(t, { 'field.order_id': 'A 1/2' }))).toEqual([a]);
    expect(ids(await list(t, { 'field.order_id': 'A 1' }))).toEqual([]);
    expect(ids(await list(t, { 'field.regions': 'us', 'field.plan': 'team' }))).toEqual([c]);
    expect(ids(await list(t, { 'field.regions': 'eu', priority: 'urgent' }))).toEqual([c]);
    const all = await list(t, { 'field.regions.in': 'eu,us,apac' });
    expect(all.body.total).toBe(3);
    expect(all.body.tickets.map((x: { id: string }) => x.id)).toEqual([c, b, a]);
    expect(ids(await list(t, {}))).toContain(d);
  });

  it('refuses unknown, non-filterable and ill-typed filters with 422 naming the parameter', async () => {
    const t = await shop();
    for (const [param, value] of [
      ['field.nope', 'x'],
      ['field.site', 'https://x.example'],
      ['field.amount', 'ten'],
      ['field.plan.gte', 'pro'],
      ['field.vip', 'maybe'],
      ['field.Bad-Key', 'x'],
      // Names an object cannot carry as data: refused like any unknown key, never dropped unseen.
      ['field.constructor', '1'],
      ['field.__proto__', 'x'],
      ['field.prototype', 'x'],
      // Longer than any value the field can hold.
      ['field.order_id', 'x'.repeat(501)],
    ]) {
      const res = await list(t, { [param!]: value! });
      expect(res.status, param).toBe(422);
      expect(res.body.error.details.fields[0].field, param).toBe(param);
    }
  });

  it("never reads another project's or environment's values", async () => {
    const t = await shop();
    const mine = (await open(t, { plan: 'pro' })).body.id;
    const other = await shop();
    await open(other, { plan: 'pro' });
    await app.call('POST', '/ticket-fields', {
      key: t.sandboxKey,
      body: { key: 'plan', label: 'Plan', type: 'select', options: ['pro'], filterable: true },
    });
    await app.call('POST', '/tickets', {
      key: t.sandboxKey,
      body: { subject: 's', body: 'b', customer: { email: customerEmail() }, customFields: { plan: 'pro' } },
    });
    expect(ids(await list(t, { 'field.plan': 'pro' }))).toEqual([mine]);
  });
});

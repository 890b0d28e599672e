import { randomBytes, randomUUID } from 'node:crypto';
import { matchOrCreateCustomer, recordCustomerTicket } from '@helpdesk/core/areas/customers/match';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp();
const unique = () => `m-${randomBytes(4).toString('hex')}@example.com`;

const tenantOf = async () => {
  const t = await createTenant();
  return { t, ctx: { accountId: t.accountId, projectId: t.projects.main!.id, env: 'live' as const } };
};

describe('matchOrCreateCustomer', () => {
  it('creates a customer once under concurrent calls and matches case-insensitively', async () => {
    const { t, ctx } = await tenantOf();
    const email = unique();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        matchOrCreateCustomer(ctx, { email: i % 2 ? email.toUpperCase() : email, name: 'Ada' }),
      ),
    );
    expect(new Set(results.map((r) => r.customer.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0]!.customer).toMatchObject({ email, name: 'Ada' });

    const list = await app.call('GET', '/customers', { key: t.liveKey, query: { search: email } });
    expect(list.body.total).toBe(1);
  });

  it('keeps customers of another environment apart', async () => {
    const { ctx } = await tenantOf();
    const email = unique();
    const live = await matchOrCreateCustomer(ctx, { email });
    const sandbox = await matchOrCreateCustomer({ ...ctx, env: 'sandbox' }, { email });
    expect(sandbox.created).toBe(true);
    expect(sandbox.customer.id).not.toBe(live.customer.id);
  });

  it('counts tickets and never below zero; ignores deleted customers', async () => {
    const { t, ctx } = await tenantOf();
    const { customer } = await matchOrCreateCustomer(ctx, { email: unique() });
    await recordCustomerTicket(ctx, customer.id, 1);
    await recordCustomerTicket(ctx, customer.id, 1);
    await recordCustomerTicket(ctx, customer.id, -1);
    let res = await app.call('GET', `/customers/${customer.id}`, { key: t.liveKey });
    expect(res.body.ticketCount).toBe(1);
    await recordCustomerTicket(ctx, customer.id, -1);
    await recordCustomerTicket(ctx, customer.id, -1);
    res = await app.call('GET', `/customers/${customer.id}`, { key: t.liveKey });
    expect(res.body.ticketCount).toBe(0);
    await expect(recordCustomerTicket(ctx, randomUUID(), 1)).resolves.toBeUndefined();
  });
});

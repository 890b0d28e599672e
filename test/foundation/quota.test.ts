import { allowancesFor, PLAN_ALLOWANCES } from '@helpdesk/core/identity/plans';
import {
  consumeQuota,
  consumeTicketQuota,
  readUsage,
  releaseStorage,
  requirePlan,
  reserveStorage,
} from '@helpdesk/core/identity/quota';
import { Problem } from '@helpdesk/core/kernel/errors/problem';
import type { AccountContext } from '@helpdesk/core/kernel/tenant';
import { describe, expect, it } from 'vitest';
import { createTenant } from '../support/fixtures.js';

const ctxFor = async (
  plan: AccountContext['plan'],
  limits: Partial<AccountContext['allowances']>,
  env: 'live' | 'sandbox' = 'live',
) => {
  const t = await createTenant({ plan, limits });
  return { accountId: t.accountId, plan, allowances: allowancesFor(plan, limits), env } satisfies AccountContext;
};

const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Problem);
  return err as Problem;
};

describe('plans', () => {
  it('has the documented defaults, overridable per account', () => {
    expect(PLAN_ALLOWANCES.free).toEqual({
      tickets: 100,
      emails: 1000,
      logEvents: 10000,
      storageBytes: 100 * 1024 * 1024,
    });
    expect(PLAN_ALLOWANCES.business.tickets).toBe(100_000);
    expect(allowancesFor('starter', { emails: 5 })).toMatchObject({ tickets: 1000, emails: 5 });
  });
});

describe('ticket quota', () => {
  it('pauses Free at the allowance with reason free_allowance', async () => {
    const ctx = await ctxFor('free', { tickets: 2 });
    await consumeTicketQuota(ctx);
    await consumeTicketQuota(ctx);
    const err = await failure(consumeTicketQuota(ctx));
    expect(err.status).toBe(403);
    expect(err.code).toBe('plan.ticket_limit');
    expect(err.details).toEqual({ current: 2, allowance: 2, reason: 'free_allowance' });
  });

  it('accepts paid overage up to 3x the allowance, then reason ceiling', async () => {
    const ctx = await ctxFor('starter', { tickets: 2 });
    for (let i = 0; i < 6; i++) await consumeTicketQuota(ctx);
    const err = await failure(consumeTicketQuota(ctx));
    expect(err.details).toEqual({ current: 6, allowance: 2, reason: 'ceiling' });
    expect((await readUsage(ctx.accountId)).tickets).toBe(6);
  });

  it('never counts sandbox', async () => {
    const ctx = await ctxFor('free', { tickets: 1 }, 'sandbox');
    for (let i = 0; i < 3; i++) await consumeTicketQuota(ctx);
    expect((await readUsage(ctx.accountId)).tickets).toBe(0);
  });
});

describe('monthly and storage quotas', () => {
  it('refuses a batch that would cross the allowance and counts nothing for it', async () => {
    const ctx = await ctxFor('pro', { logEvents: 10 });
    await consumeQuota(ctx, 'logEvents', 8);
    const err = await failure(consumeQuota(ctx, 'logEvents', 3));
    expect(err).toMatchObject({ status: 403, code: 'plan.log_event_limit' });
    expect(err.message).toBe(
      'This request needs 3 of the monthly log event allowance of 10, of which 2 remain this month.',
    );
    await consumeQuota(ctx, 'logEvents', 2);
    expect((await readUsage(ctx.accountId)).logEvents).toBe(10);
    expect((await failure(consumeQuota(ctx, 'logEvents', 1))).message).toBe(
      'The monthly log event allowance of 10 is used up for this month.',
    );
  });

  it('reserves and releases storage bytes', async () => {
    const ctx = await ctxFor('pro', { storageBytes: 100 });
    await reserveStorage(ctx, 60);
    expect((await failure(reserveStorage(ctx, 50))).code).toBe('plan.storage_limit');
    await releaseStorage(ctx, 60);
    await reserveStorage(ctx, 100);
    expect((await readUsage(ctx.accountId)).storageBytes).toBe(100);
  });

  it('gates features by plan', async () => {
    const free = await ctxFor('free', {});
    const err = await failure(Promise.resolve().then(() => requirePlan(free, 'pro', 'Feedback')));
    expect(err).toMatchObject({ status: 403, code: 'plan.upgrade_required' });
    expect(err.message).toContain('Feedback');
    expect(() => requirePlan({ ...free, plan: 'business' }, 'pro', 'Feedback')).not.toThrow();
  });
});

import { isConditionFailure } from '../kernel/db/errors.js';
import { problem } from '../kernel/errors/problem.js';
import type { AccountContext, Plan } from '../kernel/tenant.js';
import { Usage } from './entities.js';
import { planAtLeast, TICKET_OVERAGE_CEILING } from './plans.js';

export type MonthlyMetric = 'emails' | 'logEvents';

const LIMIT_CODE = { emails: 'plan.email_limit', logEvents: 'plan.log_event_limit' } as const;

export const currentPeriod = (now = new Date()) => now.toISOString().slice(0, 7);
const STORAGE_PERIOD = 'total';

type Counted = MonthlyMetric | 'storageBytes' | 'tickets';

const addUnderCeiling = (accountId: string, period: string, metric: Counted, n: number, max: number) =>
  Usage.update({ accountId, period })
    .add({ [metric]: n })
    // A first use larger than the whole allowance must fail too, so `not exists` only passes when n fits.
    .where((attr, op) => `${n <= max ? `${op.notExists(attr[metric])} OR ` : ''}${op.lte(attr[metric], max - n)}`);

const usageOf = async (accountId: string, period: string, metric: Counted) => {
  const { data } = await Usage.get({ accountId, period }).go();
  return (data as Record<string, number> | null)?.[metric] ?? 0;
};

async function addWithCeiling(accountId: string, period: string, metric: Counted, n: number, max: number) {
  try {
    const { data } = await addUnderCeiling(accountId, period, metric, n, max).go({ response: 'updated_new' });
    return { ok: true as const, value: (data as Record<string, number>)[metric] ?? n };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    return { ok: false as const, value: await usageOf(accountId, period, metric) };
  }
}

/**
 * Counts `n` units of a monthly metric against the plan; throws the plan 403 when it would cross the
 * allowance, and counts nothing then. Sandbox is exempt.
 */
export async function consumeQuota(ctx: AccountContext, metric: MonthlyMetric, n: number, now = new Date()) {
  if (ctx.env === 'sandbox' || n <= 0) return;
  const allowance = ctx.allowances[metric];
  const result = await addWithCeiling(ctx.accountId, currentPeriod(now), metric, n, allowance);
  if (!result.ok) throw problem(LIMIT_CODE[metric], { limit: metric, current: result.value, allowance, requested: n });
}

/** Gives back units counted by consumeQuota for work that was then not done. */
export async function releaseQuota(
  ctx: AccountContext,
  metric: MonthlyMetric | 'tickets',
  n: number,
  now = new Date(),
) {
  if (ctx.env === 'sandbox' || n <= 0) return;
  await Usage.update({ accountId: ctx.accountId, period: currentPeriod(now) })
    .add({ [metric]: -n })
    .go();
}

/**
 * The spec's ticket rule: Free pauses creation at the allowance; paid plans accept overage up to
 * 3x the allowance. Sandbox tickets never count.
 */
export async function consumeTicketQuota(ctx: AccountContext, now = new Date()) {
  if (ctx.env === 'sandbox') return;
  const { max } = ticketCeiling(ctx);
  const result = await addWithCeiling(ctx.accountId, currentPeriod(now), 'tickets', 1, max);
  if (!result.ok) throw ticketLimitError(ctx, result.value);
}

function ticketCeiling(ctx: AccountContext) {
  const allowance = ctx.allowances.tickets;
  const free = ctx.plan === 'free';
  return { allowance, free, max: free ? allowance : allowance * TICKET_OVERAGE_CEILING };
}

function ticketLimitError(ctx: AccountContext, current: number) {
  const { allowance, free, max } = ticketCeiling(ctx);
  return problem('plan.ticket_limit', {
    current,
    allowance,
    ceiling: max,
    reason: free ? 'free_allowance' : 'ceiling',
  });
}

/**
 * consumeTicketQuota as one item of the caller's TransactWriteItems, so counting the ticket costs no
 * request of its own: `update` is the conditional Update (undefined in sandbox, which never counts);
 * when the transaction is cancelled on it, `refusal()` reads the usage and gives the plan 403.
 */
export function ticketQuotaWrite(ctx: AccountContext, now = new Date()) {
  const period = currentPeriod(now);
  return {
    update:
      ctx.env === 'sandbox'
        ? undefined
        : addUnderCeiling(ctx.accountId, period, 'tickets', 1, ticketCeiling(ctx).max).params(),
    refusal: async () => ticketLimitError(ctx, await usageOf(ctx.accountId, period, 'tickets')),
  };
}

/** Reserves stored bytes against the storage allowance (live only); throws the plan 403 when over. */
export async function reserveStorage(ctx: AccountContext, bytes: number) {
  if (ctx.env === 'sandbox' || bytes <= 0) return;
  const allowance = ctx.allowances.storageBytes;
  const result = await addWithCeiling(ctx.accountId, STORAGE_PERIOD, 'storageBytes', bytes, allowance);
  if (!result.ok)
    throw problem('plan.storage_limit', { limit: 'storageBytes', current: result.value, allowance, requested: bytes });
}

export async function releaseStorage(ctx: AccountContext, bytes: number) {
  if (ctx.env === 'sandbox' || bytes <= 0) return;
  await Usage.update({ accountId: ctx.accountId, period: STORAGE_PERIOD }).add({ storageBytes: -bytes }).go();
}

export async function readUsage(accountId: string, now = new Date()) {
  const [{ data: month }, { data: storage }] = await Promise.all([
    Usage.get({ accountId, period: currentPeriod(now) }).go(),
    Usage.get({ accountId, period: STORAGE_PERIOD }).go(),
  ]);
  return {
    period: currentPeriod(now),
    tickets: month?.tickets ?? 0,
    emails: month?.emails ?? 0,
    logEvents: month?.logEvents ?? 0,
    storageBytes: storage?.storageBytes ?? 0,
  };
}

/** Plan-gated features (batch sending, feedback): 403 naming the feature and the plan it needs. */
export function requirePlan(ctx: AccountContext, minimum: Plan, feature: string) {
  if (!planAtLeast(ctx.plan, minimum)) {
    throw problem('plan.upgrade_required', { feature, plan: ctx.plan, requiredPlan: minimum });
  }
}

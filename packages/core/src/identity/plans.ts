import type { Allowances, Plan } from '../kernel/tenant.js';

/** Plan allowances: the one place their defaults live. Accounts may override any of them. */

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const PLAN_ALLOWANCES: Record<Plan, Allowances> = {
  free: { tickets: 100, emails: 1_000, logEvents: 10_000, storageBytes: 100 * MB },
  starter: { tickets: 1_000, emails: 10_000, logEvents: 100_000, storageBytes: 1 * GB },
  pro: { tickets: 10_000, emails: 100_000, logEvents: 1_000_000, storageBytes: 10 * GB },
  business: { tickets: 100_000, emails: 1_000_000, logEvents: 10_000_000, storageBytes: 100 * GB },
};

/** Raw log events are kept this many days, then expire. */
export const LOG_RETENTION_DAYS: Record<Plan, number> = { free: 7, starter: 14, pro: 30, business: 90 };

/** Paid plans may exceed the ticket allowance (billed as overage) up to this multiple. */
export const TICKET_OVERAGE_CEILING = 3;

const RANK: Record<Plan, number> = { free: 0, starter: 1, pro: 2, business: 3 };
export const planAtLeast = (plan: Plan, minimum: Plan) => RANK[plan] >= RANK[minimum];

export const allowancesFor = (plan: Plan, overrides?: Partial<Allowances>): Allowances => ({
  ...PLAN_ALLOWANCES[plan],
  ...Object.fromEntries(Object.entries(overrides ?? {}).filter(([, v]) => v !== undefined && v !== null)),
});

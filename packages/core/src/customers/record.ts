import type { TenantContext } from '../auth/context.js';
import type { Customer } from './entities.js';

/**
 * What customer functions need of the tenant: the rating page acts for a project without an API
 * key, so it has no full TenantContext.
 */
export type TenantRef = Pick<TenantContext, 'accountId' | 'projectId' | 'env'>;
/** Enough to address a project's records (reads need no account). */
export type TenantKey = Pick<TenantContext, 'projectId' | 'env'>;

export type CustomerItem = NonNullable<Awaited<ReturnType<ReturnType<typeof Customer.get>['go']>>['data']>;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The customer as the API (and the customer.* events) show it. */
export const toCustomer = (item: CustomerItem) => ({
  id: item.customerId,
  email: item.email,
  name: item.name ?? null,
  externalId: item.externalId ?? null,
  phone: item.phone ?? null,
  metadata: (item.metadata as Record<string, string> | undefined) ?? {},
  ticketCount: item.ticketCount,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
});
export type CustomerView = ReturnType<typeof toCustomer>;

import type { EntityItem } from 'electrodb';
import type { Customer } from './entities.js';

/**
 * What customer functions need of the tenant: the rating page acts for a project without an API
 * key, so it has no full TenantContext.
 */
export type { TenantKey, TenantRef } from '../../kernel/tenant.js';
/** Enough to address a project's records (reads need no account). */

export type CustomerItem = EntityItem<typeof Customer>;

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

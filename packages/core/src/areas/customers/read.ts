import { errors } from '../../kernel/errors/common.js';
import { Customer, CustomerKey, type UniqueKind } from './entities.js';
import type { CustomerItem, TenantKey } from './record.js';

export async function findCustomerItem(ctx: TenantKey, customerId: string): Promise<CustomerItem | null> {
  const { data } = await Customer.get({ projectId: ctx.projectId, env: ctx.env, customerId }).go();
  return data;
}

export async function getCustomerItem(ctx: TenantKey, customerId: string): Promise<CustomerItem> {
  const item = await findCustomerItem(ctx, customerId);
  if (!item) throw errors.notFound('Customer');
  return item;
}

/** The email's uniqueness item: the customer's id and name in one GetItem (email lower-cased by the caller). */
export async function findEmailKey(ctx: TenantKey, email: string) {
  const { data } = await CustomerKey.get({ projectId: ctx.projectId, env: ctx.env, kind: 'email', value: email }).go();
  return data;
}

/** The customer holding a unique value (email lower-cased by the caller, or externalId): two GetItems. */
export async function findCustomerBy(ctx: TenantKey, kind: UniqueKind, value: string): Promise<CustomerItem | null> {
  const { data: key } = await CustomerKey.get({ projectId: ctx.projectId, env: ctx.env, kind, value }).go();
  return key ? findCustomerItem(ctx, key.customerId) : null;
}

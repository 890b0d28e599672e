import { put, update } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { AGAIN, retrying } from '../../kernel/db/retry.js';
import { errors } from '../../kernel/errors/common.js';
import { eventItem } from '../webhooks/emit.js';
import { customerRecord, emailKey, insertCustomer } from './create.js';
import { Customer, CustomerKey } from './entities.js';
import { findEmailKey } from './read.js';
import { normalizeEmail, type TenantRef, toCustomer } from './record.js';

const summary = (item: { customerId: string; email: string; name?: string }) => ({
  id: item.customerId,
  email: item.email,
  name: item.name ?? null,
});

/**
 * The directory entry for an email (case-insensitive) in the project and environment, created on
 * first contact. Concurrent calls for one new email create it once: the losers read the winner.
 */
export function matchOrCreateCustomer(
  ctx: TenantRef,
  input: { email: string; name?: string },
): Promise<{ customer: { id: string; email: string; name: string | null }; created: boolean }> {
  const email = normalizeEmail(input.email);
  // Lost the race for this email: read the winner (deleted meanwhile -> create again).
  return retrying(
    async () => {
      const existing = await findEmailKey(ctx, email);
      if (existing) return { customer: summary({ ...existing, email }), created: false };
      const inserted = await insertCustomer(ctx, { email, name: input.name });
      if (!inserted.ok) return AGAIN;
      return { customer: summary(inserted.item), created: true };
    },
    () => errors.conflict('The customer'),
  );
}

/**
 * matchOrCreateCustomer for a caller's own transaction that also records one ticket of the customer:
 * one GetItem, then `writes` to commit with the caller's items (the ticketCount ADD on a known customer,
 * or the new customer, counted, with its email item). When the transaction is cancelled on one of
 * `writes` (the customer was deleted, or created by a concurrent call), call again: the next read sees
 * the current state. A new customer's customer.created event is one of the writes.
 */
export async function matchCustomerForTicket(ctx: TenantRef, input: { email: string; name?: string }) {
  const email = normalizeEmail(input.email);
  const existing = await findEmailKey(ctx, email);
  if (existing) {
    const key = { projectId: ctx.projectId, env: ctx.env, customerId: existing.customerId };
    return {
      customer: summary({ ...existing, email }),
      created: false,
      writes: [
        update(
          Customer.update(key)
            .add({ ticketCount: 1 })
            .where((attr, op) => op.exists(attr.customerId)),
        ),
      ],
    };
  }
  const record = customerRecord(ctx, { email, name: input.name }, 1);
  return {
    customer: summary(record),
    created: true,
    writes: [
      put(Customer.create(record)),
      put(CustomerKey.create(emailKey(record))),
      eventItem(ctx, 'customer.created', { customer: toCustomer(record) }),
    ],
  };
}

/** Keeps ticketCount in step with the tickets area; a deleted customer is left alone. */
export async function recordCustomerTicket(ctx: TenantRef, customerId: string, delta: 1 | -1) {
  try {
    await Customer.update({ projectId: ctx.projectId, env: ctx.env, customerId })
      .add({ ticketCount: delta })
      .where((attr, op) =>
        delta < 0 ? `${op.exists(attr.customerId)} AND ${op.gt(attr.ticketCount, 0)}` : op.exists(attr.customerId),
      )
      .go({ response: 'none' });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

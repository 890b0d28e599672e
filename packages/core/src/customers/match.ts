import { isConditionFailure } from '../db/errors.js';
import { emitEvent } from '../webhooks/emit.js';
import { Customer } from './entities.js';
import { insertCustomer } from './create.js';
import { findCustomerBy } from './read.js';
import { normalizeEmail, toCustomer, type TenantRef } from './record.js';

const summary = (item: { customerId: string; email: string; name?: string }) => ({
  id: item.customerId,
  email: item.email,
  name: item.name ?? null,
});

/**
 * The directory entry for an email (case-insensitive) in the project and environment, created on
 * first contact. Concurrent calls for one new email create it once: the losers read the winner.
 */
export async function matchOrCreateCustomer(
  ctx: TenantRef,
  input: { email: string; name?: string },
): Promise<{ customer: { id: string; email: string; name: string | null }; created: boolean }> {
  const email = normalizeEmail(input.email);
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await findCustomerBy(ctx, 'email', email);
    if (existing) return { customer: summary(existing), created: false };
    const inserted = await insertCustomer(ctx, { email, name: input.name });
    if (inserted.ok) {
      await emitEvent(ctx, 'customer.created', { customer: toCustomer(inserted.item) });
      return { customer: summary(inserted.item), created: true };
    }
    // Lost the race for this email: loop to read the winner (deleted meanwhile -> create again).
  }
  throw new Error(`Could not match or create the customer ${email}`);
}

/** Keeps ticketCount in step with the tickets area; a deleted customer is left alone. */
export async function recordCustomerTicket(ctx: TenantRef, customerId: string, delta: 1 | -1) {
  try {
    await Customer.update({ projectId: ctx.projectId, env: ctx.env, customerId })
      .add({ ticketCount: delta })
      .where((attr, op) => (delta < 0 ? `${op.exists(attr.customerId)} AND ${op.gt(attr.ticketCount, 0)}` : op.exists(attr.customerId)))
      .go({ response: 'none' });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

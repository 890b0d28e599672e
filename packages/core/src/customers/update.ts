import { errors } from '../http/errors.js';
import { emitEvent } from '../webhooks/emit.js';
import { customerService } from './entities.js';
import { takenError } from './create.js';
import { getCustomerItem } from './read.js';
import { normalizeEmail, toCustomer, type CustomerItem, type TenantRef } from './record.js';
import type { UpdateCustomerInput } from './schemas.js';
import { conflictPause, WRITE_ATTEMPTS } from '../db/transact.js';
import { problem } from '../errors/problem.js';

const PROFILE_FIELDS = ['name', 'externalId', 'phone', 'metadata'] as const;

/** A field sent with the value already stored (null for an absent one, `{}` for no metadata). */
function isUnchanged(current: CustomerItem, field: (typeof PROFILE_FIELDS)[number], value: unknown): boolean {
  if (field !== 'metadata') return (value ?? undefined) === current[field];
  const stored = Object.entries((current.metadata as Record<string, string> | undefined) ?? {});
  const given = (value ?? {}) as Record<string, string>;
  return stored.length === Object.keys(given).length && stored.every(([k, v]) => Object.hasOwn(given, k) && given[k] === v);
}

/**
 * PATCH /customers/{id}. A changed externalId moves its uniqueness item in the same transaction, on
 * the condition that the customer still holds the externalId read here; a concurrent change makes the
 * transaction fail and the update start over from a fresh read.
 */
export async function updateCustomer(ctx: TenantRef, customerId: string, patch: UpdateCustomerInput) {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await getCustomerItem(ctx, customerId);
    if (patch.email !== undefined && normalizeEmail(patch.email) !== current.email) {
      throw problem('customer.email_immutable');
    }
    const changes: Record<string, unknown> = {};
    const remove: (typeof PROFILE_FIELDS)[number][] = [];
    for (const field of PROFILE_FIELDS) {
      const value = patch[field];
      if (value === undefined || isUnchanged(current, field, value)) continue;
      const empty = value === null || (field === 'metadata' && Object.keys(value as object).length === 0);
      if (empty) remove.push(field);
      else changes[field] = value;
    }
    // Nothing differs from the stored record: no write, no updatedAt bump, no customer.updated.
    if (Object.keys(changes).length === 0 && remove.length === 0) return toCustomer(current);
    const set = { ...changes, updatedAt: new Date().toISOString() };
    const nameChanged = 'name' in changes || remove.includes('name');
    const oldExternalId = current.externalId;
    const newExternalId = patch.externalId === undefined ? oldExternalId : (patch.externalId ?? undefined);
    const moved = newExternalId !== oldExternalId;
    const key = { projectId: ctx.projectId, env: ctx.env };

    const result = await customerService.transaction
      .write(({ customer, customerKey }) => {
        let update = customer.patch({ ...key, customerId }).set(set);
        if (remove.length) update = update.remove(remove);
        const emailKey = customerKey.patch({ ...key, kind: 'email', value: current.email });
        return [
          update
            .where((attr, op) => (oldExternalId === undefined ? op.notExists(attr.externalId) : op.eq(attr.externalId, oldExternalId)))
            .commit(),
          ...(nameChanged ? [(patch.name ? emailKey.set({ name: patch.name }) : emailKey.remove(['name'])).commit()] : []),
          ...(moved && oldExternalId !== undefined
            ? [customerKey.delete({ ...key, kind: 'externalId', value: oldExternalId }).commit()]
            : []),
          ...(moved && newExternalId !== undefined
            ? [customerKey.create({ ...key, kind: 'externalId', value: newExternalId, customerId }).commit()]
            : []),
        ];
      })
      .go();
    if (!result.canceled) {
      const updated = { ...current, ...set } as CustomerItem;
      for (const field of remove) delete updated[field];
      const view = toCustomer(updated);
      await emitEvent(ctx, 'customer.updated', { customer: view });
      return view;
    }
    const codes = result.data.map((d) => d.code);
    if (moved && newExternalId !== undefined && codes.at(-1) === 'ConditionalCheckFailed') {
      throw takenError('externalId', newExternalId);
    }
    // The customer changed or vanished meanwhile, or the transaction collided: read again.
    await conflictPause(attempt + 1);
  }
  throw errors.conflict('The customer');
}

import { commit, put, remove, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { eventItem } from '../webhooks/emit.js';
import { takenError } from './create.js';
import { Customer, CustomerKey } from './entities.js';
import { getCustomerItem } from './read.js';
import { type CustomerItem, normalizeEmail, type TenantRef, toCustomer } from './record.js';
import type { UpdateCustomerInput } from './schemas.js';

const PROFILE_FIELDS = ['name', 'externalId', 'phone', 'metadata'] as const;

/** A field sent with the value already stored (null for an absent one, `{}` for no metadata). */
function isUnchanged(current: CustomerItem, field: (typeof PROFILE_FIELDS)[number], value: unknown): boolean {
  if (field !== 'metadata') return (value ?? undefined) === current[field];
  const stored = Object.entries((current.metadata as Record<string, string> | undefined) ?? {});
  const given = (value ?? {}) as Record<string, string>;
  return (
    stored.length === Object.keys(given).length && stored.every(([k, v]) => Object.hasOwn(given, k) && given[k] === v)
  );
}

/**
 * PATCH /customers/{id}. A changed externalId moves its uniqueness item in the same transaction, on
 * the condition that the customer still holds the externalId read here; a concurrent change makes the
 * transaction fail and the update start over from a fresh read.
 */
export async function updateCustomer(ctx: TenantRef, customerId: string, patch: UpdateCustomerInput) {
  const key = { projectId: ctx.projectId, env: ctx.env };
  let current = await getCustomerItem(ctx, customerId);
  let plan = planUpdate(current, patch);
  if (!plan) return toCustomer(current);
  await commit({
    items: () => {
      if (!plan) return {};
      const { set, remove: cleared, nameChanged, oldExternalId, newExternalId } = plan;
      const moved = newExternalId !== oldExternalId;
      let change = Customer.patch({ ...key, customerId }).set(set);
      if (cleared.length) change = change.remove(cleared);
      const emailKey = CustomerKey.patch({ ...key, kind: 'email', value: current.email });
      return {
        customer: update(
          change.where((attr, op) =>
            oldExternalId === undefined ? op.notExists(attr.externalId) : op.eq(attr.externalId, oldExternalId),
          ),
        ),
        name: nameChanged && update(patch.name ? emailKey.set({ name: patch.name }) : emailKey.remove(['name'])),
        oldExternalId:
          moved &&
          oldExternalId !== undefined &&
          remove(CustomerKey.delete({ ...key, kind: 'externalId', value: oldExternalId })),
        newExternalId:
          moved &&
          newExternalId !== undefined &&
          put(CustomerKey.create({ ...key, kind: 'externalId', value: newExternalId, customerId })),
        event: eventItem(ctx, 'customer.updated', { customer: toCustomer(updatedRecord(current, plan)) }),
      };
    },
    refused: async (names) => {
      if (names.has('newExternalId')) throw takenError('externalId', plan?.newExternalId ?? '');
      // The customer changed or vanished meanwhile: read it again (a 404 once it is gone).
      current = await getCustomerItem(ctx, customerId);
      plan = planUpdate(current, patch);
    },
    exhausted: () => errors.conflict('The customer'),
  });
  // A re-read that found the change already made leaves nothing to write.
  if (!plan) return toCustomer(current);
  return toCustomer(updatedRecord(current, plan));
}

/** The record as the update leaves it. */
function updatedRecord(current: CustomerItem, plan: NonNullable<ReturnType<typeof planUpdate>>) {
  const updated = { ...current, ...plan.set } as CustomerItem;
  for (const field of plan.remove) delete updated[field];
  return updated;
}

/** What a PATCH changes on the record read; undefined when nothing differs (no write, no event). */
function planUpdate(current: CustomerItem, patch: UpdateCustomerInput) {
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
  if (Object.keys(changes).length === 0 && remove.length === 0) return undefined;
  return {
    set: { ...changes, updatedAt: new Date().toISOString() },
    remove,
    nameChanged: 'name' in changes || remove.includes('name'),
    oldExternalId: current.externalId,
    newExternalId: patch.externalId === undefined ? current.externalId : (patch.externalId ?? undefined),
  };
}

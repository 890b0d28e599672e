import { randomUUID } from 'node:crypto';
import { commit, put } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { must } from '../../kernel/must.js';
import { eventItem } from '../webhooks/emit.js';
import { Customer, CustomerKey, type UniqueKind } from './entities.js';
import { type CustomerItem, normalizeEmail, type TenantKey, type TenantRef, toCustomer } from './record.js';

export interface NewCustomer {
  email: string;
  name?: string | null;
  externalId?: string | null;
  phone?: string | null;
  metadata?: Record<string, string> | null;
}

type InsertResult = { ok: true; item: CustomerItem } | { ok: false; taken: UniqueKind };

/** A new customer's record, with `ticketCount` tickets already counted. */
export function customerRecord(ctx: TenantKey, input: NewCustomer, ticketCount = 0): CustomerItem {
  const now = new Date().toISOString();
  return {
    projectId: ctx.projectId,
    env: ctx.env,
    customerId: randomUUID(),
    email: normalizeEmail(input.email),
    ticketCount,
    createdAt: now,
    updatedAt: now,
    ...(input.name ? { name: input.name } : {}),
    ...(input.externalId ? { externalId: input.externalId } : {}),
    ...(input.phone ? { phone: input.phone } : {}),
    ...(input.metadata && Object.keys(input.metadata).length ? { metadata: input.metadata } : {}),
  };
}

/** The email's uniqueness item, which also answers a match by email (see CustomerKey). */
export const emailKey = (record: CustomerItem) => ({
  projectId: record.projectId,
  env: record.env,
  kind: 'email' as const,
  value: record.email,
  customerId: record.customerId,
  ...(record.name ? { name: record.name } : {}),
});

/**
 * Writes the customer, its uniqueness items and its customer.created event in one transaction. A value already taken answers
 * which one; a transaction that merely collided with a concurrent one is retried.
 */
export async function insertCustomer(ctx: TenantRef, input: NewCustomer): Promise<InsertResult> {
  const { projectId, env } = ctx;
  const record = customerRecord(ctx, input);
  const { customerId } = record;
  let taken: UniqueKind | undefined;
  const committed = await commit({
    items: () => ({
      customer: put(Customer.create(record)),
      email: put(CustomerKey.create(emailKey(record))),
      externalId: input.externalId
        ? put(CustomerKey.create({ projectId, env, kind: 'externalId', value: input.externalId, customerId }))
        : undefined,
      event: eventItem(ctx, 'customer.created', { customer: toCustomer(record) }),
    }),
    refused: (names) => {
      taken = names.has('email') ? 'email' : names.has('externalId') ? 'externalId' : undefined;
      return taken ? 'stop' : undefined;
    },
    exhausted: () => errors.conflict('The customer'),
  });
  return committed ? { ok: true, item: record } : { ok: false, taken: must(taken, 'the unique value taken') };
}

export const takenError = (kind: UniqueKind, value: string) =>
  problem(kind === 'email' ? 'customer.email_taken' : 'customer.external_id_taken', { value });

/** POST /customers. */
export async function createCustomer(ctx: TenantRef, input: NewCustomer) {
  const result = await insertCustomer(ctx, input);
  if (!result.ok)
    throw takenError(result.taken, result.taken === 'email' ? normalizeEmail(input.email) : (input.externalId ?? ''));
  return toCustomer(result.item);
}

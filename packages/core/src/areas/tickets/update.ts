import { commit, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { TargetClock } from '../sla/clock.js';
import { type SlaSetup, slaSetup } from '../sla/setup.js';
import { activeFields, usedFields } from '../ticket-fields/definitions.js';
import { checkValues, valueWrites } from '../ticket-fields/field-values.js';
import { assigneeFor } from './assignee.js';
import { CustomerTicket, Ticket } from './entities.js';
import { ticketChangeEvents } from './events.js';
import { changedMetrics, metricsWrites } from './metrics.js';
import { type TicketItem, toDetail, valuesOf } from './present.js';
import type { UpdateTicketBody } from './schemas.js';
import { searchItemPut } from './search.js';
import { clockOf, dueWrites, factsOf, nextClock, timerItems } from './sla.js';
import { countDeltas, countsUpdate } from './stats.js';
import { loadThread } from './thread.js';
import { assertWritable } from './writable.js';

export type UpdateTicketInput = UpdateTicketBody;

type Changes = Partial<
  Pick<
    TicketItem,
    | 'status'
    | 'priority'
    | 'category'
    | 'assignee'
    | 'lastSenderType'
    | 'lastMessageAt'
    | 'closedAt'
    | 'attachmentBytes'
    | 'customFields'
    | 'splitInto'
    | 'mergedInto'
    | 'merge'
    | 'mergedFrom'
    | 'otherCustomers'
  >
>;

export interface ChangeOptions {
  /** Unmerge writes a merged (read-only) ticket. */
  unmerging?: boolean;
  /** A public staff reply or a customer's message: reply targets start or are met. */
  activity?: 'staffReply' | 'customerMessage';
  /** The project's SLA setup, read by a write that may change priority or category (the policy is chosen again). */
  setup?: SlaSetup;
  /** The ticket's tags and customer metadata, where the setup's policies match on them (sla.ts factsOf). */
  facts?: Awaited<ReturnType<typeof factsOf>>;
  /** The policy is chosen again though priority and category stay (the tags changed). */
  rechoose?: boolean;
  /** The list counts' deltas are answered, not written: the caller writes two tickets' in one update (merge). */
  countsApart?: boolean;
  /** An unmerge: the next-reply wait the merge handed to this ticket goes back (merge.ts). */
  waitTakenBack?: { startedAt: string; previous?: TargetClock };
}

/**
 * The ticket after `changes`, and the transaction items that write it only if nobody changed it since
 * `before` was read (its `updatedAt` is the version): the ticket, with every list index key rebuilt
 * from the full set of fields, its search item and the list counts that move.
 */
export function applyChanges(
  ctx: TenantContext,
  before: TicketItem,
  changes: Changes,
  time: string,
  options: ChangeOptions = {},
) {
  if (!options.unmerging) assertWritable(before);
  // updatedAt is the version: it must move even when two writes fall in one millisecond.
  const now = time > before.updatedAt ? time : new Date(Date.parse(before.updatedAt) + 1).toISOString();
  const changed = changedTicket(before, changes, now);
  const clocked: TicketItem = { ...changed, sla: nextClock(before, changed, now, options) };
  const after: TicketItem = {
    ...clocked,
    metrics: changedMetrics(before, clocked, options.activity === 'staffReply', now, options.unmerging),
  };
  const deltas = countDeltas(before, after);
  return {
    after,
    deltas,
    writes: [
      ticketWrite(before, after, now),
      searchItemPut(after),
      ...(options.countsApart ? [] : countsUpdate(ctx, deltas)),
      ...timerItems(ctx, before.ticketId, clockOf(before), clockOf(after), now),
      ...dueWrites(before, clockOf(before), clockOf(after)),
      ...metricsWrites(ctx, before, after, now),
    ],
  };
}

function changedTicket(before: TicketItem, changes: Changes, now: string) {
  const after: TicketItem = { ...before, ...changes, updatedAt: now };
  if (changes.status === 'closed' && before.status !== 'closed') after.closedAt = now;
  if (changes.status && changes.status !== 'closed') delete after.closedAt;
  return after;
}

function ticketWrite(before: TicketItem, after: TicketItem, now: string) {
  const { projectId, env, ticketId } = before;
  const set = Ticket.patch({ projectId, env, ticketId }).set({
    status: after.status,
    lastSenderType: after.lastSenderType,
    lastMessageAt: after.lastMessageAt,
    assignee: after.assignee,
    priority: after.priority,
    category: after.category,
    attachmentBytes: after.attachmentBytes,
    ...(after.customFields ? { customFields: after.customFields } : {}),
    ...(after.splitInto ? { splitInto: after.splitInto } : {}),
    ...(after.mergedFrom ? { mergedFrom: after.mergedFrom } : {}),
    ...(after.otherCustomers ? { otherCustomers: after.otherCustomers } : {}),
    ...(after.mergedInto ? { mergedInto: after.mergedInto, merge: after.merge } : {}),
    ...(after.sla ? { sla: after.sla } : {}),
    ...(after.metrics ? { metrics: after.metrics } : {}),
    updatedAt: now,
    ...(after.closedAt ? { closedAt: after.closedAt } : {}),
  });
  const gone = (['closedAt', 'mergedInto', 'merge', 'sla'] as const).filter((name) => before[name] && !after[name]);
  return update((gone.length ? set.remove([...gone]) : set).where((a, op) => op.eq(a.updatedAt, before.updatedAt)));
}

/** The status of the ticket's copy under its customer (gone once the customer is deleted). */
export const customerCopyUpdate = (ctx: TenantContext, after: TicketItem) =>
  update(
    CustomerTicket.patch({
      projectId: ctx.projectId,
      env: ctx.env,
      customerId: after.customerId,
      createdAt: after.createdAt,
      ticketId: after.ticketId,
    }).set({
      status: after.status,
    }),
  );

export async function updateTicket(ctx: TenantContext, ticketId: string, input: UpdateTicketInput) {
  const assignee = input.assignedTo === undefined ? undefined : await assigneeFor(ctx, input.assignedTo);
  const changes: Changes = {
    ...(input.status ? { status: input.status } : {}),
    ...(input.priority ? { priority: input.priority } : {}),
    ...(input.category ? { category: input.category } : {}),
    ...(assignee ? { assignee } : {}),
  };
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  let defs = input.customFields ? await usedFields(ctx, Object.keys(input.customFields)) : [];
  // A new priority or category may choose another SLA policy.
  const setup = input.priority || input.category ? await slaSetup(ctx) : undefined;
  let thread = await loadThread(ctx, ticketId);
  const facts = setup ? await factsOf(thread.ticket, setup) : undefined;
  // Field values are checked against the definitions and merged into the ticket's, read again on a retry.
  const plan = () => {
    const values = input.customFields
      ? { customFields: checkValues(defs, input.customFields, valuesOf(thread.ticket), false) }
      : {};
    return applyChanges(ctx, thread.ticket, { ...changes, ...values }, new Date().toISOString(), { setup, facts });
  };
  let next = plan();
  await commit({
    items: () => ({
      ticket: next.writes,
      fields: valueWrites(tenant, ticketId, defs, valuesOf(thread.ticket), valuesOf(next.after)),
      customerCopy: next.after.status !== thread.ticket.status && customerCopyUpdate(ctx, next.after),
      events: ticketChangeEvents(ctx, thread.ticket, next.after),
    }),
    optional: ['customerCopy'],
    refused: async (names) => {
      if (names.has('fields')) defs = await activeFields(ctx);
      thread = await loadThread(ctx, ticketId);
      next = plan();
    },
    exhausted: () => errors.conflict('The ticket'),
  });
  return toDetail(ctx, next.after, thread);
}

import type { TenantContext } from '../auth/context.js';
import { errors } from '../http/errors.js';
import { conflictPause, transactWriteWithCopies, update, WRITE_ATTEMPTS } from '../db/transact.js';
import { emitEvent } from '../webhooks/emit.js';
import { assigneeFor } from './assignee.js';
import { CustomerTicket, Ticket, type Category, type Priority, type Status } from './entities.js';
import { eventCustomer, eventTicket, toDetail, type TicketItem } from './present.js';
import { searchItemPut } from './search.js';
import { countDeltas, countsUpdate } from './stats.js';
import { loadThread } from './thread.js';

export interface UpdateTicketInput {
  status?: Status;
  priority?: Priority;
  category?: Category;
  assignedTo?: string | null;
}

type Changes = Partial<Pick<TicketItem, 'status' | 'priority' | 'category' | 'assignee' | 'lastSenderType' | 'lastMessageAt' | 'closedAt' | 'attachmentBytes'>>;

/**
 * The ticket after `changes`, and the transaction items that write it only if nobody changed it since
 * `before` was read (its `updatedAt` is the version): the ticket, with every list index key rebuilt
 * from the full set of fields, its search item and the list counts that move.
 */
export function applyChanges(ctx: TenantContext, before: TicketItem, changes: Changes, time: string) {
  // updatedAt is the version: it must move even when two writes fall in one millisecond.
  const now = time > before.updatedAt ? time : new Date(Date.parse(before.updatedAt) + 1).toISOString();
  const after = changedTicket(before, changes, now);
  return { after, writes: [ticketWrite(before, after, now), searchItemPut(after), ...countsUpdate(ctx, countDeltas(before, after))] };
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
    updatedAt: now,
    ...(after.closedAt ? { closedAt: after.closedAt } : {}),
  });
  return update(
    (before.closedAt && !after.closedAt ? set.remove(['closedAt']) : set).where((a, op) => op.eq(a.updatedAt, before.updatedAt)).params(),
  );
}

/** The status of the ticket's copy under its customer (gone once the customer is deleted). */
export const customerCopyUpdate = (ctx: TenantContext, after: TicketItem) =>
  update(
    CustomerTicket.patch({ projectId: ctx.projectId, env: ctx.env, customerId: after.customerId, createdAt: after.createdAt, ticketId: after.ticketId })
      .set({ status: after.status })
      .params(),
  );

/** How many times a write is retried after losing a race with another change of the same ticket. */

export async function updateTicket(ctx: TenantContext, ticketId: string, input: UpdateTicketInput) {
  const assignee = input.assignedTo === undefined ? undefined : await assigneeFor(ctx, input.assignedTo);
  let thread = await loadThread(ctx, ticketId);
  for (let attempt = 1; ; attempt++) {
    const before = thread.ticket;
    const changes: Changes = {
      ...(input.status ? { status: input.status } : {}),
      ...(input.priority ? { priority: input.priority } : {}),
      ...(input.category ? { category: input.category } : {}),
      ...(assignee ? { assignee } : {}),
    };
    const { after, writes } = applyChanges(ctx, before, changes, new Date().toISOString());
    const result = await transactWriteWithCopies(writes, after.status !== before.status ? [customerCopyUpdate(ctx, after)] : []);
    if (!result.ok) {
      if (attempt >= WRITE_ATTEMPTS) throw errors.conflict('The ticket');
      await conflictPause(attempt);
      if (result.codes[0] === 'ConditionalCheckFailed') thread = await loadThread(ctx, ticketId);
      continue;
    }
    if (after.status === 'resolved' && before.status !== 'resolved') {
      await emitEvent(ctx, 'ticket.resolved', { ticket: eventTicket(after), customer: eventCustomer(after) });
    }
    return toDetail(ctx, after, thread);
  }
}

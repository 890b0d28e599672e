import { createWriteTransaction } from 'electrodb';
import type { TenantContext } from '../auth/context.js';
import { emitEvent } from '../webhooks/emit.js';
import { assigneeFor } from './assignee.js';
import { CustomerTicket, Ticket, type Category, type Priority, type Status } from './entities.js';
import { eventCustomer, eventTicket, toDetail, type TicketItem } from './present.js';
import { applyCountDeltas, countDeltas } from './stats.js';
import { loadThread } from './thread.js';

export interface UpdateTicketInput {
  status?: Status;
  priority?: Priority;
  category?: Category;
  assignedTo?: string | null;
}

type Changes = Partial<Pick<TicketItem, 'status' | 'priority' | 'category' | 'assignee' | 'lastSenderType' | 'lastMessageAt' | 'closedAt' | 'attachmentBytes'>>;

/**
 * The ticket after `changes`, written only if nobody changed it since `before` was read (its
 * `updatedAt` is the version). Every list index key is rebuilt from the full set of fields.
 */
export function applyChanges(before: TicketItem, changes: Changes, time: string) {
  // updatedAt is the version: it must move even when two writes fall in one millisecond.
  const now = time > before.updatedAt ? time : new Date(Date.parse(before.updatedAt) + 1).toISOString();
  const after = changedTicket(before, changes, now);
  return { after, write: (t: TicketTx) => ticketWrite(t, before, after, now) };
}

type TicketTx = Parameters<Parameters<typeof createWriteTransaction<{ ticket: typeof Ticket }, unknown, never[]>>[1]>[0]['ticket'];

function changedTicket(before: TicketItem, changes: Changes, now: string) {
  const after: TicketItem = { ...before, ...changes, updatedAt: now };
  if (changes.status === 'closed' && before.status !== 'closed') after.closedAt = now;
  if (changes.status && changes.status !== 'closed') delete after.closedAt;
  return after;
}

function ticketWrite(t: TicketTx, before: TicketItem, after: TicketItem, now: string) {
  const { projectId, env, ticketId } = before;
  const set = t.patch({ projectId, env, ticketId }).set({
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
  return (before.closedAt && !after.closedAt ? set.remove(['closedAt']) : set)
    .where((a, op) => op.eq(a.updatedAt, before.updatedAt))
    .commit();
}

/** How many times a write is retried after losing a race with another change of the same ticket. */
export const WRITE_ATTEMPTS = 5;

const entities = { ticket: Ticket, customerTicket: CustomerTicket };

export async function updateTicket(ctx: TenantContext, ticketId: string, input: UpdateTicketInput) {
  const assignee = input.assignedTo === undefined ? undefined : await assigneeFor(ctx, input.assignedTo);
  for (let attempt = 1; ; attempt++) {
    const thread = await loadThread(ctx, ticketId);
    const before = thread.ticket;
    const changes: Changes = {
      ...(input.status ? { status: input.status } : {}),
      ...(input.priority ? { priority: input.priority } : {}),
      ...(input.category ? { category: input.category } : {}),
      ...(assignee ? { assignee } : {}),
    };
    const { after, write } = applyChanges(before, changes, new Date().toISOString());
    const statusChanged = after.status !== before.status;
    const { canceled } = await createWriteTransaction(entities, (e) => [
      write(e.ticket),
      ...(statusChanged
        ? [
            e.customerTicket
              .patch({ projectId: ctx.projectId, env: ctx.env, customerId: before.customerId, createdAt: before.createdAt, ticketId })
              .set({ status: after.status })
              .commit(),
          ]
        : []),
    ]).go();
    if (canceled) {
      if (attempt < WRITE_ATTEMPTS) continue;
      throw new Error(`Ticket ${ticketId} kept changing; update abandoned`);
    }
    await applyCountDeltas(ctx, countDeltas(before, after));
    if (after.status === 'resolved' && before.status !== 'resolved') {
      await emitEvent(ctx, 'ticket.resolved', { ticket: eventTicket(after), customer: eventCustomer(after) });
    }
    return toDetail(ctx, after, thread);
  }
}

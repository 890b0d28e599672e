import { releaseStorage } from '../../identity/quota.js';
import { commit, remove } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { Problem } from '../../kernel/errors/problem.js';
import { deleteObjects } from '../../kernel/ports/blob-store.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { recordCustomerTicket } from '../customers/match.js';
import { usedFields } from '../ticket-fields/definitions.js';
import { indexedValues } from '../ticket-fields/field-values.js';
import { fieldCleanupQueue } from '../ticket-fields/queue.js';
import { eventItem } from '../webhooks/emit.js';
import { Attachment, CustomerTicket, Message, Tag, Ticket, TicketDue, TicketNumber } from './entities.js';
import { valuesOf } from './present.js';
import { deleteSearchItem } from './search.js';
import { clockOf, dueOf } from './sla.js';
import { applyCountDeltas, countDeltas } from './stats.js';
import { loadThread, type Thread } from './thread.js';
import { assertWritable } from './writable.js';

/**
 * Deletes the ticket for good, and the tickets merged into it (whose threads were part of its own).
 * The conditional delete of the ticket item is the claim: of two concurrent deletes one answers 404 and
 * only one releases storage and counts.
 */
export async function deleteTicket(ctx: TenantContext, ticketId: string) {
  const thread = await loadThread(ctx, ticketId, { own: true });
  assertWritable(thread.ticket);
  // The merged tickets go first: a delete cut short leaves the target to be deleted again, never them behind it.
  let merged = 0;
  for (const id of thread.ticket.mergedFrom ?? []) {
    const gone = await loadThread(ctx, id, { own: true })
      .then((t) => deleteOne(ctx, t))
      .catch(goneAlready);
    merged += gone?.attachmentsRemoved ?? 0;
  }
  const deleted = await deleteOne(ctx, thread);
  return { ...deleted, attachmentsRemoved: deleted.attachmentsRemoved + merged };
}

/** A merged ticket deleted meanwhile (by another delete of its target) is done. */
const goneAlready = (err: unknown) => {
  if (err instanceof Problem && err.code === 'not_found') return undefined;
  throw err;
};

async function deleteOne(ctx: TenantContext, thread: Thread) {
  const { ticket } = thread;
  const { ticketId } = ticket;
  const key = { projectId: ctx.projectId, env: ctx.env, ticketId };
  const due = dueOf(clockOf(ticket));
  const values = valuesOf(ticket);
  // A held value's field cannot have changed type (it has values): the kept definitions know its index keys.
  const indexed = Object.keys(values).length
    ? indexedValues(await usedFields(ctx, Object.keys(values)), ticketId, values)
    : [];
  // The claim, ticket.deleted and the clean-up of its field values commit together: only the delete that wins does them.
  await commit({
    items: () => ({
      ticket: remove(Ticket.delete(key).where((a, op) => op.exists(a.ticketId))),
      event: eventItem(ctx, 'ticket.deleted', { ticket: { id: ticketId, number: ticket.number } }),
      fields: indexed.length > 0 && outboxItem(fieldCleanupQueue, { ...key, values: indexed }),
    }),
    refused: () => {
      throw errors.notFound('Ticket');
    },
    exhausted: () => errors.conflict('The ticket'),
  });
  await Promise.all([
    thread.messages.length ? Message.delete(thread.messages).go() : undefined,
    thread.attachments.length ? Attachment.delete(thread.attachments).go() : undefined,
    thread.tagItems.length ? Tag.delete(thread.tagItems).go() : undefined,
    TicketNumber.delete({ ...key, number: ticket.number }).go(),
    CustomerTicket.delete({ ...key, customerId: ticket.customerId, createdAt: ticket.createdAt }).go(),
    deleteSearchItem(ticket),
    due ? TicketDue.delete({ ...key, dueAt: due.dueAt }).go() : undefined,
    deleteObjects([
      ...thread.attachments.map((a) => a.objectKey),
      ...thread.messages.flatMap((m) => (m.originalKey ? [m.originalKey] : [])),
    ]),
  ]);
  await Promise.all([
    releaseStorage(ctx, ticket.attachmentBytes),
    applyCountDeltas(ctx, countDeltas(ticket, undefined)),
    recordCustomerTicket(ctx, ticket.customerId, -1),
  ]);
  return {
    deleted: true,
    id: ticketId,
    attachmentsRemoved: thread.attachments.length,
    projectId: ctx.projectId,
    projectSlug: ctx.projectSlug ?? null,
  };
}

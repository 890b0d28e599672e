import { randomUUID } from 'node:crypto';
import type { TenantContext } from '../auth/context.js';
import { ticketQuotaWrite } from '../auth/quota.js';
import { matchCustomerForTicket } from '../customers/match.js';
import { conflictPause, put, transactWrite, update, WRITE_ATTEMPTS, type TransactItem } from '../db/transact.js';
import { emitEvent } from '../webhooks/emit.js';
import { memberCheck, unknownMember } from './assignee.js';
import { CustomerTicket, Message, Tag, Ticket, TicketNumber, UNASSIGNED, type Category, type Priority } from './entities.js';
import { eventCustomer, eventTicket, type TicketItem } from './present.js';
import { searchItemPut } from './search.js';
import { applyCountDeltas, countDeltas, nextTicketNumber, type Facets } from './stats.js';
import { uniqueTags } from './tags.js';
import { errors } from '../http/errors.js';

export interface CreateTicketInput {
  subject: string;
  body: string;
  customer: { email: string; name?: string };
  priority?: Priority;
  category?: Category;
  tags?: string[];
  assignedTo?: string;
}

/** Reads of the customer: the first, and one more after a concurrent create or delete of it. */
const CUSTOMER_READS = 2;
/** Every create of an account updates its usage item in a transaction: collisions are expected. */

/**
 * Creates a ticket with the customer's first message. Requests: the number counter (which also counts
 * the ticket in the list counts) and the customer's GetItem, in parallel; then ONE TransactWriteItems
 * holding the ticket quota, the ticket and its search item, message, tags and number item, the
 * customer's copy and ticket count (or the new customer) and the assignee's existence. A refused
 * transaction gives the counts back; its number stays used.
 */
export async function createTicket(ctx: TenantContext, input: CreateTicketInput) {
  const facets: Facets = {
    status: 'new',
    lastSenderType: 'customer',
    assignee: input.assignedTo ?? UNASSIGNED,
    priority: input.priority ?? 'medium',
    category: input.category ?? 'other',
  };
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const ticketId = randomUUID();
  const now = new Date().toISOString();
  const quota = ticketQuotaWrite(ctx);
  const quotaItem = quota.update && update(quota.update);
  const memberItem = input.assignedTo ? memberCheck(ctx, input.assignedTo) : undefined;
  const [numbered, matched] = await Promise.allSettled([nextTicketNumber(ctx, facets), matchCustomerForTicket(ctx, input.customer)]);
  let ticket: TicketItem | undefined;
  try {
    if (numbered.status === 'rejected') throw numbered.reason;
    if (matched.status === 'rejected') throw matched.reason;
    const number = numbered.value;
    let match = matched.value;
    for (let attempt = 1, reads = 1; !ticket; attempt++) {
      const { customer } = match;
      const next: TicketItem = {
        ...tenant,
        ...facets,
        ticketId,
        number,
        subject: input.subject,
        customerId: customer.id,
        customerEmail: customer.email,
        customerName: input.customer.name ?? customer.name ?? customer.email,
        lastMessageAt: now,
        attachmentBytes: 0,
        createdAt: now,
        updatedAt: now,
      };
      const items: TransactItem[] = [
        ...(quotaItem ? [quotaItem] : []),
        ...(memberItem ? [memberItem] : []),
        put(Ticket.create(next).params()),
        searchItemPut(next),
        put(
          Message.create({ ...tenant, ticketId, messageId: randomUUID(), senderType: 'customer', visibility: 'public', body: input.body, createdAt: now }).params(),
        ),
        put(TicketNumber.create({ ...tenant, number, ticketId }).params()),
        put(CustomerTicket.create({ ...tenant, customerId: customer.id, ticketId, number, subject: input.subject, status: 'new', createdAt: now }).params()),
        ...uniqueTags(input.tags ?? []).map((t, position) => put(Tag.create({ ...tenant, ticketId, ...t, createdAt: now, position }).params())),
        ...match.writes,
      ];
      const result = await transactWrite(items);
      if (result.ok) {
        ticket = next;
        continue;
      }
      const failed = (item: TransactItem | undefined) => item !== undefined && result.codes[items.indexOf(item)] === 'ConditionalCheckFailed';
      if (failed(quotaItem)) throw await quota.refusal();
      if (failed(memberItem)) throw unknownMember(input.assignedTo!);
      if (match.writes.some(failed) && reads < CUSTOMER_READS) {
        match = await matchCustomerForTicket(ctx, input.customer);
        reads++;
      } else if (result.codes.includes('TransactionConflict') && attempt < WRITE_ATTEMPTS) {
        await conflictPause(attempt);
      } else if (result.codes.includes('TransactionConflict')) {
        throw errors.conflict('The ticket');
      } else {
        throw new Error(`Ticket ${ticketId} (#${number}) could not be written: ${result.codes.join(',')}`);
      }
    }
    await match.committed();
  } catch (err) {
    if (numbered.status === 'fulfilled') await applyCountDeltas(ctx, countDeltas(facets, undefined));
    throw err;
  }
  await emitEvent(ctx, 'ticket.created', { ticket: eventTicket(ticket), customer: eventCustomer(ticket) });
  return {
    id: ticketId,
    number: ticket.number,
    subject: ticket.subject,
    status: ticket.status,
    priority: ticket.priority,
    customer: { email: ticket.customerEmail, name: ticket.customerName },
    createdAt: now,
  };
}

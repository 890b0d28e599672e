import { randomUUID } from 'node:crypto';
import { createWriteTransaction } from 'electrodb';
import type { TenantContext } from '../auth/context.js';
import { consumeTicketQuota, releaseQuota } from '../auth/quota.js';
import { matchOrCreateCustomer, recordCustomerTicket } from '../customers/match.js';
import { emitEvent } from '../webhooks/emit.js';
import { assigneeFor } from './assignee.js';
import { CustomerTicket, Message, Tag, Ticket, TicketNumber, type Category, type Priority } from './entities.js';
import { eventCustomer, eventTicket, type TicketItem } from './present.js';
import { applyCountDeltas, countDeltas, nextTicketNumber, type Facets } from './stats.js';
import { uniqueTags } from './tags.js';

export interface CreateTicketInput {
  subject: string;
  body: string;
  customer: { email: string; name?: string };
  priority?: Priority;
  category?: Category;
  tags?: string[];
  assignedTo?: string;
}

const entities = { ticket: Ticket, message: Message, tag: Tag, ticketNumber: TicketNumber, customerTicket: CustomerTicket };

/**
 * Creates a ticket with the customer's first message. Requests: the quota UpdateItem (live only), the
 * customer match and the number counter (in parallel), one TransactWrite, the customer's ticket count.
 */
export async function createTicket(ctx: TenantContext, input: CreateTicketInput) {
  const assignee = await assigneeFor(ctx, input.assignedTo);
  await consumeTicketQuota(ctx);
  const facets: Facets = {
    status: 'new',
    lastSenderType: 'customer',
    assignee,
    priority: input.priority ?? 'medium',
    category: input.category ?? 'other',
  };
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const ticketId = randomUUID();
  const now = new Date().toISOString();
  let numbered = false;
  let ticket: TicketItem;
  try {
    const [{ customer }, number] = await Promise.all([
      matchOrCreateCustomer(ctx, input.customer),
      nextTicketNumber(ctx, facets).then((n) => ((numbered = true), n)),
    ]);
    ticket = {
      ...tenant,
      ...facets,
      ticketId,
      number,
      subject: input.subject,
      customerId: customer.id,
      customerEmail: customer.email,
      customerName: input.customer.name ?? customer.name ?? customer.email,
      searchText: `${input.subject}\n${customer.email}`.toLowerCase(),
      lastMessageAt: now,
      attachmentBytes: 0,
      createdAt: now,
      updatedAt: now,
    };
    const { canceled } = await createWriteTransaction(entities, (e) => [
      e.ticket.create(ticket).commit(),
      e.message
        .create({ ...tenant, ticketId, messageId: randomUUID(), senderType: 'customer', visibility: 'public', body: input.body, createdAt: now })
        .commit(),
      e.ticketNumber.create({ ...tenant, number, ticketId }).commit(),
      e.customerTicket
        .create({ ...tenant, customerId: customer.id, ticketId, number, subject: input.subject, status: 'new', createdAt: now })
        .commit(),
      ...uniqueTags(input.tags ?? []).map((t) => e.tag.create({ ...tenant, ticketId, ...t, createdAt: now }).commit()),
    ]).go();
    if (canceled) throw new Error(`Ticket ${ticketId} (#${number}) could not be written`);
  } catch (err) {
    // The ticket does not exist: give back its quota unit and its counts (its number stays used).
    await releaseQuota(ctx, 'tickets', 1);
    if (numbered) await applyCountDeltas(ctx, countDeltas(facets, undefined));
    throw err;
  }
  await recordCustomerTicket(ctx, ticket.customerId, 1);
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

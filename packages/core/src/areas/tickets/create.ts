import { randomUUID } from 'node:crypto';
import { ticketQuotaWrite } from '../../identity/quota.js';
import { commit, put, update, type WriteItem } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { TicketSource } from '../../kernel/ticket-terms.js';
import { matchCustomerForTicket } from '../customers/match.js';
import { slaSetup } from '../sla/setup.js';
import { activeFields, usedFields } from '../ticket-fields/definitions.js';
import { checkValues, valueWrites } from '../ticket-fields/field-values.js';
import { eventItem } from '../webhooks/emit.js';
import { memberCheck, unknownMember } from './assignee.js';
import {
  Attachment,
  CustomerTicket,
  Message,
  type SenderType,
  type Status,
  Tag,
  Ticket,
  TicketNumber,
  UNASSIGNED,
} from './entities.js';
import { type GivenFile, prepareFiles, storeOriginal } from './files.js';
import type { AttachmentItem, MessageItem, OriginalMail } from './present.js';
import { eventCustomer, eventTicket, type TicketItem, valuesOf } from './present.js';
import type { CreateTicketBody } from './schemas.js';
import { searchItemPut } from './search.js';
import { clockOf, dueWrites, factsOf, startClock, timerItems } from './sla.js';
import { applyCountDeltas, countDeltas, type Facets, nextTicketNumber } from './stats.js';
import { uniqueTags } from './tags.js';

/** POST /tickets's body, and what a mail that opens a ticket adds to it. */
export type CreateTicketInput = CreateTicketBody & {
  /** Files of the first message (inbound mail). */
  attachments?: GivenFile[];
  /** The closed ticket a mail answered: the new ticket continues it. */
  followUpOf?: string;
  /** An item committed with the ticket whose refusal means it was created before (an inbound mail's record). */
  once?: (ticketId: string) => WriteItem;
  /** The whole mail the first message's body was extracted from (inbound mail). */
  original?: OriginalMail;
  /** Where the ticket was opened (`ticket.created`'s `source`); the API by default. */
  source?: TicketSource;
  /** Side effects of the caller's committed with the ticket (the help center's confirmation mail, a split's moves). */
  alsoCommit?: (ticket: { ticketId: string; number: number }) => readonly WriteItem[];
  /**
   * A split: the first message is an existing one, keeping its id, time and original, its attachments'
   * items moving with it (their files stay where they are); the ticket names the one it came from.
   * `last` is the latest of the messages it takes (its time and sender), `status` what they make it.
   */
  moved?: {
    from: string;
    message: MessageItem;
    attachments: AttachmentItem[];
    last: { at: string; sender: SenderType };
    status: Status;
  };
};

/**
 * The project's field definitions and the new ticket's values. Required fields apply to tickets opened
 * through the API and the help center; a received mail cannot carry them. The definitions are the ones
 * this instance keeps (definitions.ts), read again after the transaction found one changed.
 */
async function fieldsFor(ctx: TenantContext, input: CreateTicketInput, fresh = false) {
  const defs = fresh ? await activeFields(ctx) : await usedFields(ctx, Object.keys(input.customFields ?? {}));
  // A split copies the values its source has, complete or not.
  return {
    defs,
    values: checkValues(defs, input.customFields, {}, input.source !== 'email' && input.source !== 'split'),
  };
}

/**
 * Creates a ticket with the customer's first message. Requests: the number counter (which also counts
 * the ticket in the list counts) and the customer's GetItem, in parallel; then ONE TransactWriteItems
 * holding the ticket quota, the ticket and its search item, message, tags and number item, the
 * customer's copy and ticket count (or the new customer) and the assignee's existence. A refused
 * transaction gives the counts back; its number stays used.
 */
export async function createTicket(ctx: TenantContext, input: CreateTicketInput) {
  const facets: Facets = {
    status: input.moved?.status ?? 'new',
    lastSenderType: input.moved?.last.sender ?? 'customer',
    assignee: input.assignedTo ?? UNASSIGNED,
    priority: input.priority ?? 'medium',
    category: input.category ?? 'other',
  };
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const ticketId = randomUUID();
  const messageId = input.moved?.message.messageId ?? randomUUID();
  const movedBytes = input.moved?.attachments.reduce((n, a) => n + a.fileSize, 0) ?? 0;
  const now = new Date().toISOString();
  const files = await prepareFiles(ctx, ticketId, messageId, input.attachments ?? [], now);
  const quota = ticketQuotaWrite(ctx);
  const quotaItem = quota.update && update(quota.update);
  const memberItem = input.assignedTo ? memberCheck(ctx, input.assignedTo) : undefined;
  let fields = await fieldsFor(ctx, input);
  const [numbered, matched, setup] = await Promise.allSettled([
    nextTicketNumber(ctx, facets),
    matchCustomerForTicket(ctx, input.customer),
    slaSetup(ctx),
  ]);
  let ticket: TicketItem;
  try {
    if (numbered.status === 'rejected') throw numbered.reason;
    if (matched.status === 'rejected') throw matched.reason;
    if (setup.status === 'rejected') throw setup.reason;
    const number = numbered.value;
    let match = matched.value;
    // What the SLA policies match on beyond the ticket's fields (read only when a policy asks); a new
    // customer has no metadata yet.
    const slaFacts = (m: typeof match) =>
      factsOf({ ...tenant, ticketId, customerId: m.customer.id }, setup.value, {
        tags: input.tags ?? [],
        ...(m.created ? { customerMetadata: {} } : {}),
      });
    let facts = await slaFacts(match);
    const ticketOf = (customer: typeof match.customer): TicketItem =>
      withClock({
        ...tenant,
        ...facets,
        ticketId,
        number,
        subject: input.subject,
        customerId: customer.id,
        customerEmail: customer.email,
        customerName: input.customer.name ?? customer.name ?? customer.email,
        lastMessageAt: input.moved?.last.at ?? now,
        attachmentBytes: files.totalBytes + movedBytes,
        customFields: fields.values,
        ...(input.followUpOf ? { followUpOf: input.followUpOf } : {}),
        ...(input.moved ? { splitFrom: input.moved.from } : {}),
        source: input.source ?? 'api',
        createdAt: now,
        updatedAt: now,
      });
    const withClock = (t: TicketItem): TicketItem => {
      const sla = startClock(setup.value, t, facts);
      return sla ? { ...t, sla } : t;
    };
    const message = {
      ...tenant,
      ticketId,
      messageId,
      senderType: 'customer' as const,
      visibility: 'public' as const,
      body: input.body,
      ...(input.original ? { originalKey: await storeOriginal(ctx, ticketId, messageId, input.original) } : {}),
      ...(input.moved?.message.originalKey ? { originalKey: input.moved.message.originalKey } : {}),
      createdAt: input.moved?.message.createdAt ?? now,
    };
    await files.store();
    await commit({
      items: () => {
        const next = ticketOf(match.customer);
        return {
          quota: quotaItem,
          member: memberItem,
          ticket: [put(Ticket.create(next)), searchItemPut(next)],
          timers: [
            ...timerItems(ctx, ticketId, undefined, clockOf(next), now),
            ...dueWrites(next, undefined, clockOf(next)),
          ],
          message: put(Message.create(message)),
          attachments: [
            ...files.attachments.map((a) => put(Attachment.create(a))),
            ...(input.moved?.attachments ?? []).map((a) => put(Attachment.create({ ...a, ticketId }))),
          ],
          number: put(TicketNumber.create({ ...tenant, number, ticketId })),
          customerCopy: put(
            CustomerTicket.create({
              ...tenant,
              customerId: match.customer.id,
              ticketId,
              number,
              subject: input.subject,
              status: 'new',
              createdAt: now,
            }),
          ),
          tags: uniqueTags(input.tags ?? []).map((t, position) =>
            put(Tag.create({ ...tenant, ticketId, ...t, createdAt: now, position })),
          ),
          customer: match.writes,
          fields: valueWrites(tenant, ticketId, fields.defs, {}, fields.values),
          once: input.once?.(ticketId),
          also: input.alsoCommit?.({ ticketId, number }),
          event: eventItem(ctx, 'ticket.created', {
            ticket: eventTicket(next),
            customer: eventCustomer(next),
            source: input.source ?? 'api',
          }),
        };
      },
      refused: async (names) => {
        if (names.has('quota')) throw await quota.refusal();
        if (names.has('member')) throw unknownMember(input.assignedTo ?? '');
        // The same inbound mail, delivered again: its ticket was created then.
        if (names.has('once')) throw new DuplicateTicket(ticketId);
        // A field deleted or changed meanwhile: its definitions judge the values again.
        if (names.has('fields')) fields = await fieldsFor(ctx, input, true);
        // The customer was deleted, or created by a concurrent call: the next read sees which.
        if (names.has('customer')) {
          match = await matchCustomerForTicket(ctx, input.customer);
          facts = await slaFacts(match);
        }
      },
      exhausted: () => errors.conflict('The ticket'),
    });
    ticket = ticketOf(match.customer);
  } catch (err) {
    if (numbered.status === 'fulfilled') await applyCountDeltas(ctx, countDeltas(facets, undefined));
    await files.discard();
    throw err;
  }
  await files.committed();
  return {
    id: ticketId,
    number: ticket.number,
    subject: ticket.subject,
    status: ticket.status,
    priority: ticket.priority,
    customer: { email: ticket.customerEmail, name: ticket.customerName },
    customFields: valuesOf(ticket),
    createdAt: now,
  };
}

/** A ticket id that was committed before: the same inbound mail, delivered again. */
export class DuplicateTicket extends Error {
  constructor(readonly ticketId: string) {
    super(`Ticket ${ticketId} exists`);
  }
}

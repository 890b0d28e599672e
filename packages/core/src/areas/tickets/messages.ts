import { randomUUID } from 'node:crypto';
import { env } from '../../kernel/config.js';
import { commit, put, type WriteItem } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { ticketPageLink } from '../../kernel/links/ticket-page.js';
import { replyAddress } from '../../kernel/mail/reply-address.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { prepareSystemEmail } from '../emails/system-send.js';
import { escapeHtml } from '../templates/escape.js';
import { eventItem } from '../webhooks/emit.js';
import { Attachment, Message, Ticket } from './entities.js';
import { ticketChangeEvents } from './events.js';
import { prepareFiles, storeOriginal } from './files.js';
import { otherCustomersOf } from './merge.js';
import {
  eventCustomer,
  eventTicket,
  type MessageItem,
  type OriginalMail,
  type TicketItem,
  toMessage,
} from './present.js';
import type { PostMessageBody } from './schemas.js';
import { applyChanges, customerCopyUpdate } from './update.js';
import type { SenderType, Status } from './values.js';
import { assertWritable } from './writable.js';

/** POST /tickets/{ticketId}/messages's body, and what an inbound mail adds to it. */
export type PostMessageInput = PostMessageBody & {
  /** An item committed with the message whose refusal means it was added before (an inbound mail's record). */
  once?: WriteItem;
  /** The whole mail the body was extracted from (inbound mail). */
  original?: OriginalMail;
};

async function getTicket(ctx: TenantContext, ticketId: string) {
  const { data } = await Ticket.get({ projectId: ctx.projectId, env: ctx.env, ticketId }).go();
  if (!data) throw errors.notFound('Ticket');
  return data;
}

/**
 * A message's catalog events: `message.received` for every message (the spec's event), `message.sent`
 * for a public staff reply, `note.added` for an internal note, and the ticket's change events when the
 * message moved its status.
 */
function messageEvents(
  ctx: TenantContext,
  before: TicketItem,
  after: TicketItem,
  message: { id: string; senderType: string; visibility: string; body: string; createdAt: string },
) {
  const data = { ticket: eventTicket(after), message, customer: eventCustomer(after) };
  const kind =
    message.visibility === 'internal' ? 'note.added' : message.senderType === 'staff' ? 'message.sent' : undefined;
  return [
    eventItem(ctx, 'message.received', data),
    ...(kind ? [eventItem(ctx, kind, data)] : []),
    ...ticketChangeEvents(ctx, before, after),
  ];
}

/**
 * A staff reply (public), an internal note, or the customer's own message. Attachments go to S3 first, under reserved storage (inline
 * files are written, uploads copied to the ticket's key); the message, its attachments, the uploads'
 * claims, the ticket's new last-message fields, its search item and the list counts are one transaction.
 */
export async function postMessage(ctx: TenantContext, ticketId: string, input: PostMessageInput) {
  const visibility = input.visibility ?? 'public';
  let before = await getTicket(ctx, ticketId);
  assertWritable(before);
  const messageId = randomUUID();
  const createdAt = new Date().toISOString();
  const files = await prepareFiles(ctx, ticketId, messageId, input.attachments ?? [], createdAt);
  const senderType = input.senderType ?? 'staff';
  const message: MessageItem = {
    projectId: ctx.projectId,
    env: ctx.env,
    ticketId,
    messageId,
    senderType,
    visibility,
    body: input.body,
    ...(input.original ? { originalKey: await storeOriginal(ctx, ticketId, messageId, input.original) } : {}),
    createdAt,
  };
  const view = await toMessage(message, files.attachments);
  // The customer's copy of a public reply: its Email Logs row is written in the message's transaction.
  const reply =
    senderType === 'staff' && visibility === 'public' && ctx.env === 'live' ? replyEmail(ctx, before, view) : undefined;

  const nextTicket = (current: TicketItem) =>
    applyChanges(
      ctx,
      current,
      {
        lastSenderType: senderType,
        lastMessageAt: createdAt,
        attachmentBytes: current.attachmentBytes + files.totalBytes,
        ...statusAfter(current.status, senderType, visibility),
      },
      createdAt,
      visibility === 'public' ? { activity: senderType === 'staff' ? 'staffReply' : 'customerMessage' } : {},
    );

  await files.store();
  let next = nextTicket(before);
  try {
    await commit({
      items: () => ({
        uploads: files.claims,
        ticket: next.writes,
        message: put(Message.create(message)),
        attachments: files.attachments.map((a) => put(Attachment.create(a))),
        email: reply?.writes,
        once: input.once,
        events: messageEvents(ctx, before, next.after, {
          id: messageId,
          senderType: message.senderType,
          visibility,
          body: message.body,
          createdAt,
        }),
        customerCopy: next.after.status !== before.status && customerCopyUpdate(ctx, next.after),
      }),
      optional: ['customerCopy'],
      refused: async (names) => {
        if (names.has('uploads')) throw await files.uploadTaken();
        // The same inbound mail, delivered again: its message was added then.
        if (names.has('once')) throw new DuplicateMessage(messageId);
        // The ticket changed (or went) since it was read: read it again.
        if (names.has('ticket')) before = await getTicket(ctx, ticketId);
        next = nextTicket(before);
      },
      exhausted: () => errors.conflict('The ticket'),
    });
  } catch (err) {
    await files.discard();
    throw err;
  }
  await files.committed();
  return view;
}

/** A message id that was committed before: the same inbound mail delivered again. */
export class DuplicateMessage extends Error {
  constructor(readonly messageId: string) {
    super(`Message ${messageId} exists`);
  }
}

/**
 * Where a message moves the ticket: a staff reply opens a new ticket; the customer answering reopens
 * one that waited on them or was resolved. Every other status stays (a closed ticket is reopened by a
 * PATCH, not by a message).
 */
function statusAfter(status: Status, senderType: SenderType, visibility: 'public' | 'internal'): { status?: 'open' } {
  if (visibility !== 'public') return {};
  const opens = senderType === 'staff' ? status === 'new' : status === 'pending' || status === 'resolved';
  return opens ? { status: 'open' } : {};
}

/** The customer's copy of a public reply (never in sandbox), with links to its attachments. */
function replyEmail(ctx: TenantContext, ticket: TicketItem, message: Awaited<ReturnType<typeof toMessage>>) {
  const links = message.attachments.map((a) => `- [${escapeHtml(a.fileName)}](${a.url})`).join('\n');
  const others = otherCustomersOf(ticket).map((c) => c.email);
  return prepareSystemEmail(ctx, {
    to: ticket.customerEmail,
    // Customers of tickets merged into this one hear the answer too (docs/decisions.md, Merge).
    ...(others.length ? { cc: others } : {}),
    subject: `Re: ${ticket.subject} [#${ticket.number}]`,
    markdown: `${escapeHtml(message.body)}${links ? `\n\nAttachments:\n\n${links}` : ''}\n\n---\n\nAnswer this mail, or [view the ticket and answer online](${ticketPageLink(ctx, ticket.ticketId)}).`,
    kind: 'ticket_reply',
    metadata: { ticketId: ticket.ticketId, messageId: message.id },
    // The customer's answer comes back to this ticket (conversations/address.ts), in one mail thread.
    ...(env.inboundDomain ? { replyTo: replyAddress(ctx.project, ctx.env, ticket.number, env.inboundDomain) } : {}),
    threadId: ticket.ticketId,
  });
}

import { randomUUID } from 'node:crypto';
import type { TenantContext } from '../auth/context.js';
import { releaseStorage, reserveStorage } from '../auth/quota.js';
import { conflictPause, put, transactWriteWithCopies, WRITE_ATTEMPTS } from '../db/transact.js';
import { prepareSystemEmail } from '../emails/system-send.js';
import { problem } from '../errors/problem.js';
import { errors } from '../http/errors.js';
import { logger } from '../logger.js';
import { deleteObjects, putObject } from '../ports/blob-store.js';
import { emitEvent } from '../webhooks/emit.js';
import { Attachment, MAX_ATTACHMENT_BYTES, Message, Ticket } from './entities.js';
import { eventCustomer, eventTicket, toMessage, type AttachmentItem, type MessageItem, type TicketItem } from './present.js';
import { applyChanges, customerCopyUpdate } from './update.js';
import { escapeHtml } from '../templates/escape.js';

export interface PostMessageInput {
  body: string;
  visibility?: 'public' | 'internal';
  attachments?: { fileName: string; mimeType: string; content: string }[];
}

export const objectKeyOf = (ctx: TenantContext, ticketId: string, attachmentId: string, fileName: string) =>
  `${ctx.projectId}/${ctx.env}/tickets/${ticketId}/${attachmentId}/${fileName}`;

async function getTicket(ctx: TenantContext, ticketId: string) {
  const { data } = await Ticket.get({ projectId: ctx.projectId, env: ctx.env, ticketId }).go();
  if (!data) throw errors.notFound('Ticket');
  return data;
}

/**
 * A staff reply (public) or internal note. Attachments go to S3 first, under reserved storage; the
 * message, its attachments, the ticket's new last-message fields, its search item and the list counts
 * are one transaction: a GetItem and a TransactWriteItems.
 */
export async function postMessage(ctx: TenantContext, ticketId: string, input: PostMessageInput) {
  const visibility = input.visibility ?? 'public';
  const files = (input.attachments ?? []).map((a) => ({ ...a, bytes: Buffer.from(a.content, 'base64') }));
  const totalBytes = files.reduce((n, f) => n + f.bytes.length, 0);
  if (totalBytes > MAX_ATTACHMENT_BYTES) {
    throw problem('ticket.attachments_too_large', { maxBytes: MAX_ATTACHMENT_BYTES, bytes: totalBytes });
  }
  let before = await getTicket(ctx, ticketId);
  const tenant = { projectId: ctx.projectId, env: ctx.env, ticketId };
  const messageId = randomUUID();
  const createdAt = new Date().toISOString();
  const message: MessageItem = { ...tenant, messageId, senderType: 'staff', visibility, body: input.body, createdAt };
  const attachments: AttachmentItem[] = files.map((f, position) => {
    const attachmentId = randomUUID();
    return {
      ...tenant,
      messageId,
      attachmentId,
      position,
      fileName: f.fileName,
      fileSize: f.bytes.length,
      mimeType: f.mimeType,
      objectKey: objectKeyOf(ctx, ticketId, attachmentId, f.fileName),
      createdAt,
    };
  });

  const view = await toMessage(message, attachments);
  // The customer's copy of a public reply: its Email Logs row is written in the message's transaction.
  const reply = visibility === 'public' && ctx.env === 'live' ? replyEmail(ctx, before, view) : undefined;

  await reserveStorage(ctx, totalBytes);
  let after: TicketItem | undefined;
  try {
    await Promise.all(attachments.map((a, i) => putObject(a.objectKey, files[i]!.bytes, a.mimeType)));
    for (let attempt = 1; !after; attempt++) {
      const next = applyChanges(
        ctx,
        before,
        {
          lastSenderType: 'staff',
          lastMessageAt: createdAt,
          attachmentBytes: before.attachmentBytes + totalBytes,
          ...(visibility === 'public' && before.status === 'new' ? { status: 'open' as const } : {}),
        },
        createdAt,
      );
      const result = await transactWriteWithCopies(
        [
          ...next.writes,
          put(Message.create(message).params()),
          ...attachments.map((a) => put(Attachment.create(a).params())),
          ...(reply ? [put(reply.params)] : []),
        ],
        next.after.status !== before.status ? [customerCopyUpdate(ctx, next.after)] : [],
      );
      if (result.ok) after = next.after;
      else if (attempt >= WRITE_ATTEMPTS) throw errors.conflict('The ticket');
      else {
        await conflictPause(attempt);
        // The ticket changed (or went) since it was read: read it again; else a collision: try again.
        if (result.codes[0] === 'ConditionalCheckFailed') before = await getTicket(ctx, ticketId);
      }
    }
  } catch (err) {
    await releaseStorage(ctx, totalBytes);
    if (attachments.length) await deleteObjects(attachments.map((a) => a.objectKey));
    throw err;
  }

  await emitEvent(ctx, 'message.received', {
    ticket: eventTicket(after),
    message: { id: messageId, senderType: message.senderType, visibility, body: message.body, createdAt },
    customer: eventCustomer(after),
  });
  if (reply) {
    // A failed enqueue is logged; the reply stands and its Email Logs row says queued.
    await reply.dispatch().catch((error: unknown) => logger.error('Could not queue the ticket reply email', { ticketId, error: error as Error }));
  }
  return view;
}

/** The customer's copy of a public reply (never in sandbox), with links to its attachments. */
function replyEmail(ctx: TenantContext, ticket: TicketItem, message: Awaited<ReturnType<typeof toMessage>>) {
  const links = message.attachments.map((a) => `- [${escapeHtml(a.fileName)}](${a.url})`).join('\n');
  return prepareSystemEmail(ctx, {
    to: ticket.customerEmail,
    subject: `Re: ${ticket.subject} [#${ticket.number}]`,
    markdown: links ? `${escapeHtml(message.body)}\n\nAttachments:\n\n${links}` : escapeHtml(message.body),
    kind: 'ticket_reply',
    metadata: { ticketId: ticket.ticketId, messageId: message.id },
  });
}

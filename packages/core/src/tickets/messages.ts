import { randomUUID } from 'node:crypto';
import type { TenantContext } from '../auth/context.js';
import { releaseStorage, reserveStorage } from '../auth/quota.js';
import { commit, put } from '../db/commit.js';
import { prepareSystemEmail } from '../emails/system-send.js';
import { problem } from '../errors/problem.js';
import { errors } from '../errors/common.js';
import { logger } from '../logger.js';
import { copyObject, deleteObjects, putObject } from '../ports/blob-store.js';
import { emitEvent } from '../webhooks/emit.js';
import { Attachment, MAX_ATTACHMENT_BYTES, Message, Ticket } from './entities.js';
import type { SenderType, Status } from './values.js';
import { eventCustomer, eventTicket, toMessage, type AttachmentItem, type MessageItem, type TicketItem } from './present.js';
import { applyChanges, customerCopyUpdate } from './update.js';
import { claimUpload, loadUploads, type UploadItem } from './uploads.js';
import { escapeHtml } from '../templates/escape.js';

export interface PostMessageInput {
  body: string;
  visibility?: 'public' | 'internal';
  /** `customer`: the customer's own message, recorded by an integrator's app (public, never emailed). */
  senderType?: SenderType;
  /** Inline files (base64) and uploads (POST /attachments), in the order they are shown. */
  attachments?: ({ fileName: string; mimeType: string; content: string } | { uploadId: string })[];
}

/** One file of a message: its bytes (inline) or the upload holding them. */
type File = { fileName: string; mimeType: string; size: number } & ({ bytes: Buffer } | { upload: UploadItem });

export const objectKeyOf = (ctx: TenantContext, ticketId: string, attachmentId: string, fileName: string) =>
  `${ctx.projectId}/${ctx.env}/tickets/${ticketId}/${attachmentId}/${fileName}`;

async function getTicket(ctx: TenantContext, ticketId: string) {
  const { data } = await Ticket.get({ projectId: ctx.projectId, env: ctx.env, ticketId }).go();
  if (!data) throw errors.notFound('Ticket');
  return data;
}

/**
 * A staff reply (public), an internal note, or the customer's own message. Attachments go to S3 first, under reserved storage (inline
 * files are written, uploads copied to the ticket's key); the message, its attachments, the uploads'
 * claims, the ticket's new last-message fields, its search item and the list counts are one transaction.
 */
export async function postMessage(ctx: TenantContext, ticketId: string, input: PostMessageInput) {
  const visibility = input.visibility ?? 'public';
  const given = input.attachments ?? [];
  const inlineBytes = given.reduce((n, a) => n + ('content' in a ? Buffer.byteLength(a.content, 'base64') : 0), 0);
  if (inlineBytes > MAX_ATTACHMENT_BYTES) {
    throw problem('ticket.attachments_too_large', { maxBytes: MAX_ATTACHMENT_BYTES, bytes: inlineBytes });
  }
  let before = await getTicket(ctx, ticketId);
  const uploadRefs = given.flatMap((a, position) => ('uploadId' in a ? [{ uploadId: a.uploadId, position }] : []));
  const uploads = await loadUploads(ctx, uploadRefs);
  // A concurrent message took an upload (or it expired) since the check above: checking again says which.
  const uploadTaken = async () => {
    await loadUploads(ctx, uploadRefs);
    return errors.conflict('An upload');
  };
  const files: File[] = given.map((a) => {
    if ('content' in a) {
      const bytes = Buffer.from(a.content, 'base64');
      return { fileName: a.fileName, mimeType: a.mimeType, size: bytes.length, bytes };
    }
    const upload = uploads.find((u) => u.uploadId === a.uploadId)!;
    return { fileName: upload.fileName, mimeType: upload.mimeType, size: upload.size, upload };
  });
  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  const tenant = { projectId: ctx.projectId, env: ctx.env, ticketId };
  const messageId = randomUUID();
  const createdAt = new Date().toISOString();
  const senderType = input.senderType ?? 'staff';
  const message: MessageItem = { ...tenant, messageId, senderType, visibility, body: input.body, createdAt };
  const attachments: AttachmentItem[] = files.map((f, position) => {
    const attachmentId = randomUUID();
    return {
      ...tenant,
      messageId,
      attachmentId,
      position,
      fileName: f.fileName,
      fileSize: f.size,
      mimeType: f.mimeType,
      objectKey: objectKeyOf(ctx, ticketId, attachmentId, f.fileName),
      createdAt,
    };
  });

  const view = await toMessage(message, attachments);
  // The customer's copy of a public reply: its Email Logs row is written in the message's transaction.
  const reply = senderType === 'staff' && visibility === 'public' && ctx.env === 'live' ? replyEmail(ctx, before, view) : undefined;

  const nextTicket = (current: TicketItem) =>
    applyChanges(
      ctx,
      current,
      {
        lastSenderType: senderType,
        lastMessageAt: createdAt,
        attachmentBytes: current.attachmentBytes + totalBytes,
        ...statusAfter(current.status, senderType, visibility),
      },
      createdAt,
    );

  await reserveStorage(ctx, totalBytes);
  let after: TicketItem;
  try {
    await Promise.all(
      attachments.map(async (a, i) => {
        const f = files[i]!;
        if ('bytes' in f) return putObject(a.objectKey, f.bytes, a.mimeType);
        // The message that attaches an upload deletes its object.
        if (!(await copyObject(f.upload.objectKey, a.objectKey))) throw await uploadTaken();
      }),
    );
    const claims = uploads.map((u) => claimUpload(u, `${ticketId}/${messageId}`));
    let next = nextTicket(before);
    await commit({
      items: () => ({
        uploads: claims,
        ticket: next.writes,
        message: put(Message.create(message)),
        attachments: attachments.map((a) => put(Attachment.create(a))),
        email: reply && put(reply.params),
        customerCopy: next.after.status !== before.status && customerCopyUpdate(ctx, next.after),
      }),
      optional: ['customerCopy'],
      refused: async (names) => {
        if (names.has('uploads')) throw await uploadTaken();
        // The ticket changed (or went) since it was read: read it again.
        if (names.has('ticket')) before = await getTicket(ctx, ticketId);
        next = nextTicket(before);
      },
      exhausted: () => errors.conflict('The ticket'),
    });
    after = next.after;
  } catch (err) {
    await releaseStorage(ctx, totalBytes);
    if (attachments.length) await deleteObjects(attachments.map((a) => a.objectKey));
    throw err;
  }
  // The copies are the attachments now; the lifecycle rule would remove these later anyway.
  if (uploads.length) await deleteObjects(uploads.map((u) => u.objectKey)).catch((error: unknown) => logger.warn('Could not delete attached uploads', { error: error as Error }));

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
  return prepareSystemEmail(ctx, {
    to: ticket.customerEmail,
    subject: `Re: ${ticket.subject} [#${ticket.number}]`,
    markdown: links ? `${escapeHtml(message.body)}\n\nAttachments:\n\n${links}` : escapeHtml(message.body),
    kind: 'ticket_reply',
    metadata: { ticketId: ticket.ticketId, messageId: message.id },
  });
}

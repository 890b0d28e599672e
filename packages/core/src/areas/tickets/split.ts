import { put, remove, type WriteItem } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { must } from '../../kernel/must.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { createTicket } from './create.js';
import { Attachment, Message, SPLIT_LIMIT } from './entities.js';
import { valuesOf } from './present.js';
import { loadThread } from './thread.js';
import { applyChanges } from './update.js';
import { assertWritable } from './writable.js';

const keyOf = (t: { projectId: string; env: 'live' | 'sandbox'; ticketId: string }) => ({
  projectId: t.projectId,
  env: t.env,
  ticketId: t.ticketId,
});

/**
 * POST /tickets/{ticketId}/messages/{messageId}/split: a new ticket starts at a customer's message
 * (and takes the later ones with `includeLater`), for the same customer, with the source's subject,
 * priority, category and field values; it gets its own number (so its own reply address). The messages
 * and their files' items move in the new ticket's transaction, which also writes the source ticket
 * (its files' bytes, its last message, `splitInto`) only if nobody changed it since it was read.
 * `ticket.created` says `source: split`.
 */
export async function splitTicket(ctx: TenantContext, ticketId: string, messageId: string, includeLater = false) {
  const thread = await loadThread(ctx, ticketId);
  const source = thread.ticket;
  assertWritable(source);
  const ordered = [...thread.messages].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const at = ordered.findIndex((m) => m.messageId === messageId);
  const first = ordered[at];
  if (!first) throw errors.notFound('Message');
  if (first.senderType !== 'customer') throw problem('ticket.split_not_customer');
  // A merged ticket's message stays in its own ticket's partition and storage count: split it there.
  if (first.ticketId !== ticketId) throw problem('ticket.split_merged_message', { ticketId: first.ticketId });
  // Later messages of tickets merged into this one stay with them.
  const moving = (includeLater ? ordered.slice(at) : [first]).filter((m) => m.ticketId === ticketId);
  const staying = ordered.filter((m) => m.ticketId === ticketId && !moving.includes(m));
  if (staying.length === 0) throw problem('ticket.split_everything');
  const filesOf = (m: { messageId: string }) => thread.attachments.filter((a) => a.messageId === m.messageId);
  const movingFiles = moving.flatMap(filesOf);
  if (moving.length + movingFiles.length > SPLIT_LIMIT) throw problem('ticket.split_too_large', { limit: SPLIT_LIMIT });

  // Every message counts for the last one, notes too (they are staff messages); a public staff reply
  // among those moving opens the new ticket, as it would have opened a new one.
  const remaining = ordered.filter((m) => !moving.includes(m));
  // Neither is empty: the first message moves, and split_everything refused a split that leaves none.
  const lastStaying = must(remaining.at(-1), 'message staying');
  const lastMoving = must(moving.at(-1), 'message moving');
  const later = moving.slice(1);
  const answered = later.some((m) => m.senderType === 'staff' && m.visibility === 'public');
  const created = await createTicket(ctx, {
    subject: source.subject,
    body: first.body,
    customer: { email: source.customerEmail, name: source.customerName },
    priority: source.priority,
    category: source.category,
    ...(Object.keys(valuesOf(source)).length ? { customFields: valuesOf(source) } : {}),
    source: 'split',
    moved: {
      from: ticketId,
      message: first,
      attachments: filesOf(first),
      last: { at: lastMoving.createdAt, sender: lastMoving.senderType },
      status: answered ? 'open' : 'new',
    },
    alsoCommit: (ticket) => {
      const { writes } = applyChanges(
        ctx,
        source,
        {
          attachmentBytes: Math.max(0, source.attachmentBytes - movingFiles.reduce((n, a) => n + a.fileSize, 0)),
          lastMessageAt: lastStaying.createdAt,
          lastSenderType: lastStaying.senderType,
          splitInto: [...(source.splitInto ?? []), ticket.ticketId],
        },
        new Date().toISOString(),
      );
      const moves: WriteItem[] = [
        ...later.map((m) => put(Message.create({ ...m, ticketId: ticket.ticketId }))),
        ...later.flatMap(filesOf).map((a) => put(Attachment.create({ ...a, ticketId: ticket.ticketId }))),
        ...moving.map((m) =>
          remove(Message.delete({ ...keyOf(source), createdAt: m.createdAt, messageId: m.messageId })),
        ),
        ...movingFiles.map((a) =>
          remove(Attachment.delete({ ...keyOf(source), messageId: a.messageId, attachmentId: a.attachmentId })),
        ),
      ];
      return [...writes, ...moves];
    },
  });
  return { ...created, splitFrom: ticketId, movedMessages: moving.map((m) => m.messageId) };
}

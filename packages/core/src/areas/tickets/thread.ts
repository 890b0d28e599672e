import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { threadService } from './entities.js';
import { toDetail } from './present.js';
import { inAdditionOrder, uniqueTags } from './tags.js';

/**
 * The ticket with its messages, attachments and tags: one Query on the ticket's item collection, and
 * one more per ticket merged into it (their messages and files stay in their own partitions, so an
 * unmerge moves nothing back). Messages are in time order, each naming the ticket it belongs to; the
 * merged tickets' tags follow the ticket's own.
 * `own` leaves the merged tickets' out (what the ticket's own writes and deletes touch).
 */
export async function loadThread(ctx: TenantContext, ticketId: string, options: { own?: boolean } = {}) {
  const data = await collectionOf(ctx, ticketId);
  const ticket = data.ticket[0];
  if (!ticket) throw errors.notFound('Ticket');
  const merged = options.own ? [] : await Promise.all((ticket.mergedFrom ?? []).map((id) => mergedItems(ctx, id)));
  const messages = [...data.message, ...merged.flatMap((m) => m.messages)];
  if (merged.length) messages.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return {
    ticket,
    messages,
    attachments: [...data.attachment, ...merged.flatMap((m) => m.attachments)],
    // A merged ticket's tags show on the target (removing one there removes it from them: tags.ts).
    tags: uniqueTags([data.tag, ...merged.map((m) => m.tags)].flatMap(inAdditionOrder)).map((t) => t.tag),
    tagItems: data.tag,
  };
}
export type Thread = Awaited<ReturnType<typeof loadThread>>;

/** The messages and files of a ticket merged into the one being read (one Query of its collection). */
async function mergedItems(ctx: TenantContext, ticketId: string) {
  const data = await collectionOf(ctx, ticketId);
  return { messages: data.message, attachments: data.attachment, tags: data.tag };
}

const collectionOf = async (ctx: TenantContext, ticketId: string) =>
  (await threadService.collections.thread({ projectId: ctx.projectId, env: ctx.env, ticketId }).go({ pages: 'all' }))
    .data;

/** GET /tickets/{id}; `include=original` adds each message's original mail (one S3 read per extracted message). */
export async function getTicketDetail(ctx: TenantContext, ticketId: string, include?: 'original') {
  const thread = await loadThread(ctx, ticketId);
  return toDetail(ctx, thread.ticket, thread, { original: include === 'original' });
}

import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { threadService } from './entities.js';
import { toDetail } from './present.js';
import { inAdditionOrder } from './tags.js';

/** The ticket with its messages, attachments and tags: one Query on the ticket's item collection. */
export async function loadThread(ctx: TenantContext, ticketId: string) {
  const { data } = await threadService.collections
    .thread({ projectId: ctx.projectId, env: ctx.env, ticketId })
    .go({ pages: 'all' });
  const ticket = data.ticket[0];
  if (!ticket) throw errors.notFound('Ticket');
  return {
    ticket,
    messages: data.message,
    attachments: data.attachment,
    tags: inAdditionOrder(data.tag),
    tagItems: data.tag,
  };
}
export type Thread = Awaited<ReturnType<typeof loadThread>>;

/** GET /tickets/{id}; `include=original` adds each message's original mail (one S3 read per extracted message). */
export async function getTicketDetail(ctx: TenantContext, ticketId: string, include?: 'original') {
  const thread = await loadThread(ctx, ticketId);
  return toDetail(ctx, thread.ticket, thread, { original: include === 'original' });
}

import { countRequest } from '../../identity/rate-limit.js';
import { tenantOfProject } from '../../identity/tenant.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { verifyTicketToken } from '../../kernel/links/ticket-page.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { createTicket } from '../tickets/create.js';
import { Ticket } from '../tickets/entities.js';
import type { GivenFile } from '../tickets/files.js';
import { currentTicket } from '../tickets/merge.js';
import { postMessage } from '../tickets/messages.js';
import { toMessage } from '../tickets/present.js';
import { loadThread } from '../tickets/thread.js';
import { PAGE_POSTS_PER_MINUTE } from './values.js';

/** The token's ticket, or the one it was merged into: a merged ticket's link shows where its thread went. */
async function open(token: string) {
  const claims = verifyTicketToken(token);
  const ctx = claims && (await tenantOfProject(claims.projectId, claims.env));
  if (!claims || !ctx) throw errors.notFound('Ticket');
  const { data } = await Ticket.get({ projectId: ctx.projectId, env: ctx.env, ticketId: claims.ticketId }).go();
  const ticket = await currentTicket(ctx, data ?? undefined);
  if (!ticket) throw errors.notFound('Ticket');
  return { ctx, ticketId: ticket.ticketId };
}

/** The ticket as its customer sees it: subject, number, status and the public messages (never an internal note). */
export async function customerTicket(token: string) {
  const { ctx, ticketId } = await open(token);
  return viewOf(ctx, ticketId);
}

async function viewOf(ctx: TenantContext, ticketId: string) {
  const thread = await loadThread(ctx, ticketId);
  const visible = thread.messages.filter((m) => m.visibility === 'public');
  return {
    id: thread.ticket.ticketId,
    number: thread.ticket.number,
    subject: thread.ticket.subject,
    status: thread.ticket.status,
    messages: await Promise.all(
      visible.map(async (m) => {
        const {
          visibility: _v,
          ticketId: _t,
          ...message
        } = await toMessage(
          m,
          thread.attachments.filter((a) => a.messageId === m.messageId).sort((a, b) => a.position - b.position),
        );
        return message;
      }),
    ),
  };
}

/**
 * The customer's answer on the page: a customer message, as an answer by mail would be (a closed
 * ticket continues in a new one that names it). Answers the ticket the customer continues on.
 */
export async function answerOnPage(token: string, input: { body: string; attachments?: GivenFile[] }) {
  const { ctx, ticketId } = await open(token);
  // Counted per ticket, not per token string: however a link is spelled, its ticket has one allowance.
  const rate = await countRequest(`ticket-page:${ctx.projectId}:${ctx.env}:${ticketId}`, PAGE_POSTS_PER_MINUTE);
  if (rate.exceeded)
    throw problem('rate_limit.exceeded', {
      limit: PAGE_POSTS_PER_MINUTE,
      retryAfter: Math.max(1, rate.reset - Math.floor(Date.now() / 1000)),
    });
  const { ticket } = await loadThread(ctx, ticketId);
  if (ticket.status !== 'closed') {
    await postMessage(ctx, ticketId, { body: input.body, senderType: 'customer', attachments: input.attachments });
    return viewOf(ctx, ticketId);
  }
  const created = await createTicket(ctx, {
    subject: ticket.subject,
    body: input.body,
    customer: { email: ticket.customerEmail, name: ticket.customerName },
    attachments: input.attachments,
    followUpOf: ticketId,
    source: 'portal',
  });
  return viewOf(ctx, created.id);
}

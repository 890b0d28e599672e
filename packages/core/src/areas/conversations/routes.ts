import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { verifyTicketToken } from '../../kernel/links/ticket-page.js';
import { MAX_ATTACHMENT_BYTES } from '../tickets/values.js';
import { customerTicket, pageAnswer } from './schemas.js';
import { PAGE_POSTS_PER_MINUTE } from './values.js';

/**
 * The customer's ticket page, linked from every staff reply mail (no API key: the signed token names
 * project, environment and ticket; a forged or unknown one is 404).
 */
const base = {
  group: 'public' as const,
  tenancy: 'public' as const,
  tags: ['Tickets'],
  page: true,
  linkToken: true as const,
  // A token this service did not sign is a 404 before anything else is read (the body included).
  params: {
    token: v.pipe(
      v.string(),
      v.maxLength(512),
      v.check((token) => verifyTicketToken(token) !== undefined),
    ),
  },
};

export const publicTicketRoutes = {
  showCustomerTicket: defineRoute({
    ...base,
    id: 'showCustomerTicket',
    method: 'GET',
    path: '/public/tickets/{token}',
    summary: "The customer's page of a ticket: HTML, or JSON with Accept: application/json",
    description:
      'Subject, number, status and the public messages (staff and customer) with their attachments; internal notes never appear.',
    response: customerTicket,
    problems: ['not_found'],
  }),
  answerCustomerTicket: defineRoute({
    ...base,
    id: 'answerCustomerTicket',
    method: 'POST',
    path: '/public/tickets/{token}',
    summary: "The customer's answer on the page (JSON, or the page's form: urlencoded, or multipart with files)",
    description: `A customer message, with the effects of an answer by mail: a pending or resolved ticket opens, \`lastSenderType\` becomes customer, \`message.received\` fires. A closed ticket's answer opens a new ticket that names it (\`followUpOf\`). Files: inline in JSON (as POST /tickets/{id}/messages takes them) or files in the multipart form, at most ${MAX_ATTACHMENT_BYTES} bytes. A ticket may be answered on its page ${PAGE_POSTS_PER_MINUTE} times a minute (429).`,
    bodyType: 'any-form-or-json',
    body: pageAnswer,
    response: customerTicket,
    problems: ['not_found', 'rate_limit.exceeded', 'ticket.attachments_too_large', 'plan.storage_limit'],
  }),
} satisfies Record<string, RouteDef>;

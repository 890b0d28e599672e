import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';
import { ticketRoutes } from '@helpdesk/core/tickets/routes';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const list = onFirstCall(() => import('@helpdesk/core/tickets/list'));
const create = onFirstCall(() => import('@helpdesk/core/tickets/create'));
const thread = onFirstCall(() => import('@helpdesk/core/tickets/thread'));
const update = onFirstCall(() => import('@helpdesk/core/tickets/update'));
const remove = onFirstCall(() => import('@helpdesk/core/tickets/delete'));
const messages = onFirstCall(() => import('@helpdesk/core/tickets/messages'));
const uploads = onFirstCall(() => import('@helpdesk/core/tickets/uploads'));
const tags = onFirstCall(() => import('@helpdesk/core/tickets/tags'));

export const handler = createGroupHandler(ticketRoutes, {
  listTickets: async ({ ctx, query }) => (await list()).listTickets(ctx, query),
  createTicket: async ({ ctx, body }) => (await create()).createTicket(ctx, body),
  getTicket: async ({ ctx, params }) => (await thread()).getTicketDetail(ctx, params.ticketId),
  updateTicket: async ({ ctx, params, body }) => (await update()).updateTicket(ctx, params.ticketId, body),
  deleteTicket: async ({ ctx, params }) => (await remove()).deleteTicket(ctx, params.ticketId),
  postTicketMessage: async ({ ctx, params, body }) => (await messages()).postMessage(ctx, params.ticketId, body),
  createAttachmentUpload: async ({ ctx, body }) => (await uploads()).createUpload(ctx, body),
  addTicketTag: async ({ ctx, params, body }) => (await tags()).changeTag(ctx, params.ticketId, body.tag, 'add'),
  removeTicketTag: async ({ ctx, params, query }) => (await tags()).changeTag(ctx, params.ticketId, query.tag, 'remove'),
});

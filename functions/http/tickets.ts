import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { createTicket } from '@helpdesk/core/tickets/create';
import { deleteTicket } from '@helpdesk/core/tickets/delete';
import { listTickets } from '@helpdesk/core/tickets/list';
import { postMessage } from '@helpdesk/core/tickets/messages';
import { ticketRoutes } from '@helpdesk/core/tickets/routes';
import { changeTag } from '@helpdesk/core/tickets/tags';
import { getTicketDetail } from '@helpdesk/core/tickets/thread';
import { updateTicket } from '@helpdesk/core/tickets/update';
import { createUpload } from '@helpdesk/core/tickets/uploads';

export const handler = createGroupHandler(ticketRoutes, {
  listTickets: ({ ctx, query }) => listTickets(ctx, query),
  createTicket: ({ ctx, body }) => createTicket(ctx, body),
  getTicket: ({ ctx, params }) => getTicketDetail(ctx, params.ticketId),
  updateTicket: ({ ctx, params, body }) => updateTicket(ctx, params.ticketId, body),
  deleteTicket: ({ ctx, params }) => deleteTicket(ctx, params.ticketId),
  postTicketMessage: ({ ctx, params, body }) => postMessage(ctx, params.ticketId, body),
  createAttachmentUpload: ({ ctx, body }) => createUpload(ctx, body),
  addTicketTag: ({ ctx, params, body }) => changeTag(ctx, params.ticketId, body.tag, 'add'),
  removeTicketTag: ({ ctx, params, query }) => changeTag(ctx, params.ticketId, query.tag, 'remove'),
});

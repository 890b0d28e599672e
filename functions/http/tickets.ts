import { slaRoutes } from '@helpdesk/core/areas/sla/routes';
import { ticketFieldRoutes } from '@helpdesk/core/areas/ticket-fields/routes';
import { ticketRoutes } from '@helpdesk/core/areas/tickets/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  list: () => import('@helpdesk/core/areas/tickets/list'),
  create: () => import('@helpdesk/core/areas/tickets/create'),
  thread: () => import('@helpdesk/core/areas/tickets/thread'),
  update: () => import('@helpdesk/core/areas/tickets/update'),
  remove: () => import('@helpdesk/core/areas/tickets/delete'),
  messages: () => import('@helpdesk/core/areas/tickets/messages'),
  uploads: () => import('@helpdesk/core/areas/tickets/uploads'),
  tags: () => import('@helpdesk/core/areas/tickets/tag-change'),
  fields: () => import('@helpdesk/core/areas/ticket-fields/definitions'),
  split: () => import('@helpdesk/core/areas/tickets/split'),
  merge: () => import('@helpdesk/core/areas/tickets/merge'),
  sla: () => import('@helpdesk/core/areas/sla/setup'),
  metrics: () => import('@helpdesk/core/areas/tickets/metrics'),
});

export const handler = createGroupHandler(
  { ...ticketRoutes, ...ticketFieldRoutes, ...slaRoutes },
  {
    listTickets: async ({ ctx, query }) => (await use.list()).listTickets(ctx, query),
    createTicket: async ({ ctx, body }) => (await use.create()).createTicket(ctx, body),
    getTicket: async ({ ctx, params, query }) =>
      (await use.thread()).getTicketDetail(ctx, params.ticketId, query.include),
    updateTicket: async ({ ctx, params, body }) => (await use.update()).updateTicket(ctx, params.ticketId, body),
    deleteTicket: async ({ ctx, params }) => (await use.remove()).deleteTicket(ctx, params.ticketId),
    postTicketMessage: async ({ ctx, params, body }) => (await use.messages()).postMessage(ctx, params.ticketId, body),
    createAttachmentUpload: async ({ ctx, body }) => (await use.uploads()).createUpload(ctx, body),
    addTicketTag: async ({ ctx, params, body }) => (await use.tags()).changeTag(ctx, params.ticketId, body.tag, 'add'),
    removeTicketTag: async ({ ctx, params, query }) =>
      (await use.tags()).changeTag(ctx, params.ticketId, query.tag, 'remove'),
    splitTicket: async ({ ctx, params, body }) =>
      (await use.split()).splitTicket(ctx, params.ticketId, params.messageId, body.includeLater),
    mergeTicket: async ({ ctx, principal, params, body }) =>
      (await use.merge()).mergeTicket(
        ctx,
        params.ticketId,
        body.into,
        principal.projects.map((p) => p.id),
      ),
    unmergeTicket: async ({ ctx, params }) => (await use.merge()).unmergeTicket(ctx, params.ticketId),
    getTicketMetrics: async ({ ctx, query }) => (await use.metrics()).ticketMetrics(ctx, query),
    listBusinessCalendars: async ({ ctx }) => (await use.sla()).listCalendars(ctx),
    createBusinessCalendar: async ({ ctx, body }) => (await use.sla()).createCalendar(ctx, body),
    getBusinessCalendar: async ({ ctx, params }) => (await use.sla()).getCalendar(ctx, params.calendarId),
    updateBusinessCalendar: async ({ ctx, params, body }) =>
      (await use.sla()).updateCalendar(ctx, params.calendarId, body),
    deleteBusinessCalendar: async ({ ctx, params }) => (await use.sla()).deleteCalendar(ctx, params.calendarId),
    listSlaPolicies: async ({ ctx }) => (await use.sla()).listPolicies(ctx),
    createSlaPolicy: async ({ ctx, body }) => (await use.sla()).createPolicy(ctx, body),
    getSlaPolicy: async ({ ctx, params }) => (await use.sla()).getPolicy(ctx, params.policyId),
    updateSlaPolicy: async ({ ctx, params, body }) => (await use.sla()).updatePolicy(ctx, params.policyId, body),
    deleteSlaPolicy: async ({ ctx, params }) => (await use.sla()).deletePolicy(ctx, params.policyId),
    listTicketFields: async ({ ctx }) => (await use.fields()).listFields(ctx),
    createTicketField: async ({ ctx, body }) => (await use.fields()).createField(ctx, body),
    getTicketField: async ({ ctx, params }) => (await use.fields()).getField(ctx, params.key),
    updateTicketField: async ({ ctx, params, body }) => (await use.fields()).updateField(ctx, params.key, body),
    deleteTicketField: async ({ ctx, params }) => (await use.fields()).deleteField(ctx, params.key),
  },
);

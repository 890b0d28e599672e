import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { fieldCreate, fieldKey, fieldUpdate, ticketField } from './schemas.js';
import { FIELD_TYPES, MAX_FIELDS } from './values.js';

const base = { group: 'tickets' as const, tags: ['Ticket fields'], tenancy: 'project' as const };
const keyParams = { key: fieldKey };

export const ticketFieldRoutes = {
  listTicketFields: defineRoute({
    ...base,
    id: 'listTicketFields',
    method: 'GET',
    path: '/ticket-fields',
    summary: "The project's ticket fields, in position order",
    scope: 'tickets:read',
    response: v.object({ fields: v.array(ticketField) }),
  }),
  createTicketField: defineRoute({
    ...base,
    id: 'createTicketField',
    method: 'POST',
    path: '/ticket-fields',
    summary: 'Define a ticket field',
    description: `Types: ${FIELD_TYPES.join(', ')}; selects take \`options\`. \`required\` fields must be given when a ticket is opened through the API or the help center (a received mail cannot carry them); \`filterable\` fields can filter GET /tickets (\`field.<key>\`). At most ${MAX_FIELDS} per project and environment.`,
    scope: 'tickets:write',
    body: fieldCreate,
    response: ticketField,
    problems: ['ticket_field.key_taken', 'ticket_field.limit'],
  }),
  getTicketField: defineRoute({
    ...base,
    id: 'getTicketField',
    method: 'GET',
    path: '/ticket-fields/{key}',
    summary: 'One ticket field',
    scope: 'tickets:read',
    params: keyParams,
    response: ticketField,
    problems: ['not_found'],
  }),
  updateTicketField: defineRoute({
    ...base,
    id: 'updateTicketField',
    method: 'PATCH',
    path: '/ticket-fields/{key}',
    summary: 'Change a ticket field (a new label keeps the values; a new type only while no ticket holds one)',
    scope: 'tickets:write',
    params: keyParams,
    body: fieldUpdate,
    response: ticketField,
    problems: ['not_found', 'ticket_field.type_in_use'],
  }),
  deleteTicketField: defineRoute({
    ...base,
    id: 'deleteTicketField',
    method: 'DELETE',
    path: '/ticket-fields/{key}',
    summary: 'Delete a ticket field: gone from the API at once, its values leave the tickets in the background',
    description:
      'The key stays taken until every value is removed (seconds for most fields), then it is free for a new field.',
    scope: 'tickets:write',
    params: keyParams,
    response: v.object({ deleted: v.boolean(), key: v.string() }),
    problems: ['not_found'],
  }),
} satisfies Record<string, RouteDef>;

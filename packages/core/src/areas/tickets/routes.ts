import * as v from 'valibot';
import { encodeCursor } from '../../kernel/api/list.js';
import { defineRoute } from '../../kernel/api/route.js';
import {
  boolQuery,
  integer,
  intQuery,
  isoDateTime,
  listQuery,
  pageMeta,
  pageQuery,
  uuid,
} from '../../kernel/api/schemas.js';
import { fieldFilterQuery } from '../ticket-fields/schemas.js';
import {
  category,
  createTicketBody,
  customerRef,
  message,
  postMessageBody,
  priority,
  status,
  tag,
  tagsResponse,
  ticketDetail,
  ticketRow,
  updateTicketBody,
  uploadBody,
} from './schemas.js';
import { ATTACHMENTS_PER_MESSAGE, MAX_ATTACHMENT_BYTES, MAX_UPLOAD_BYTES, UNASSIGNED } from './values.js';

const ticketParams = { ticketId: uuid };
const base = { group: 'tickets' as const, tags: ['Tickets'], tenancy: 'project' as const };

export const ticketRoutes = {
  listTickets: defineRoute({
    ...base,
    id: 'listTickets',
    method: 'GET',
    path: '/tickets',
    summary: 'List tickets, most recent activity first',
    description:
      'Filterable ticket fields filter with `field.<key>=<value>` (any type; a multi-select matches when it holds the option), `field.<key>.gte=` and `field.<key>.lte=` (number, date, datetime), `field.<key>.in=a,b` (any of the values). Each field filter reads its value index (one Query per value or range), then the tickets it names; other filters apply to those. A key that is not a filterable field, or a value its type cannot hold, is 422 naming the parameter.',
    scope: 'tickets:read',
    queryGroups: { field: fieldFilterQuery },
    query: {
      status: v.optional(status),
      priority: v.optional(priority),
      category: v.optional(category),
      search: v.optional(v.pipe(v.string(), v.maxLength(200))),
      // Each value names an index partition: anything else is refused before it reaches a key.
      assignee: listQuery(
        `${UNASSIGNED}|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}`,
        UNASSIGNED,
        'Expected member ids (UUIDs) or unassigned, separated by commas',
      ),
      number: intQuery({ min: 1 }),
      awaitingReply: boolQuery(false),
      cursor: v.optional(
        v.pipe(
          v.string(),
          v.minLength(1),
          v.description('Opaque: the `nextCursor` of the page before (any other value is 422).'),
          v.metadata({
            examples: [encodeCursor({ u: '2026-01-31T10:00:00.000Z', t: '7f1c1c1e-7f5b-4a8e-9f55-1d2c3b4a5e6f' })],
          }),
        ),
      ),
      ...pageQuery(),
    },
    response: v.object({
      tickets: v.array(ticketRow),
      ...pageMeta,
      nextCursor: v.nullable(v.string()),
    }),
  }),
  createTicket: defineRoute({
    ...base,
    id: 'createTicket',
    method: 'POST',
    path: '/tickets',
    summary: 'Create a ticket with the customer first message',
    scope: 'tickets:write',
    body: createTicketBody,
    response: v.object({
      id: uuid,
      number: integer,
      subject: v.string(),
      status,
      priority,
      customer: customerRef,
      customFields: ticketRow.entries.customFields,
      createdAt: isoDateTime,
    }),
    problems: ['plan.ticket_limit', 'ticket.unknown_member'],
  }),
  getTicket: defineRoute({
    ...base,
    id: 'getTicket',
    method: 'GET',
    path: '/tickets/{ticketId}',
    summary: 'A ticket with its customer, messages and tags',
    scope: 'tickets:read',
    params: ticketParams,
    query: {
      include: v.optional(
        v.pipe(
          v.picklist(['original']),
          v.description(
            "`original`: each message also carries `original`, the whole mail its body was extracted from (`{ text, html }`: quoted history, forwarded mail and signature included), or null when the body is the message as written. A customer's mail is stored as what they wrote; the rest is kept for this.",
          ),
        ),
      ),
    },
    response: ticketDetail,
  }),
  updateTicket: defineRoute({
    ...base,
    id: 'updateTicket',
    method: 'PATCH',
    path: '/tickets/{ticketId}',
    summary: 'Update status, priority, category or assignee',
    scope: 'tickets:write',
    params: ticketParams,
    body: updateTicketBody,
    response: ticketDetail,
    problems: ['ticket.unknown_member'],
  }),
  deleteTicket: defineRoute({
    ...base,
    id: 'deleteTicket',
    method: 'DELETE',
    path: '/tickets/{ticketId}',
    summary: 'Delete a ticket permanently, with its messages, tags and attachments',
    scope: 'tickets:write',
    params: ticketParams,
    response: v.object({
      deleted: v.boolean(),
      id: uuid,
      attachmentsRemoved: integer,
      projectId: uuid,
      projectSlug: v.nullable(v.string()),
    }),
  }),
  postTicketMessage: defineRoute({
    ...base,
    id: 'postTicketMessage',
    method: 'POST',
    path: '/tickets/{ticketId}/messages',
    summary:
      "Reply to the customer (public), add an internal note, or record the customer's own message (senderType customer)",
    description: `\`senderType\` is \`staff\` (default: a public reply is emailed to the customer) or \`customer\` (for apps and chat widgets that host the conversation: always public, never emailed; it moves a pending or resolved ticket to open and sets lastSenderType customer, so awaitingReply finds it). Attach up to ${ATTACHMENTS_PER_MESSAGE} files in two ways, mixed freely: inline as base64 (\`{ fileName, mimeType, content }\`, at most ${MAX_ATTACHMENT_BYTES} decoded bytes per message, else 422 \`ticket.attachments_too_large\`), or uploaded first through POST /attachments (\`{ uploadId }\`, up to ${MAX_UPLOAD_BYTES} bytes each). An upload must be of this project and environment and unexpired (else 422 \`ticket.upload_not_found\`), uploaded with its declared size (else 422 \`ticket.upload_incomplete\`) and is attached once (else 422 \`ticket.upload_used\`); these errors name the item in \`details.fields\`. A request whose Lambda event would exceed 6 MiB never reaches the API: API Gateway answers 413 \`{ "message": "Request Entity Too Large" }\`.`,
    scope: 'tickets:write',
    params: ticketParams,
    body: postMessageBody,
    response: message,
    problems: [
      'plan.storage_limit',
      'ticket.attachments_too_large',
      'ticket.upload_not_found',
      'ticket.upload_used',
      'ticket.upload_incomplete',
    ],
  }),
  createAttachmentUpload: defineRoute({
    ...base,
    id: 'createAttachmentUpload',
    method: 'POST',
    path: '/attachments',
    summary: 'Start an upload: a presigned S3 PUT for one file, to attach to a message by its id',
    description: `For files too large to send inline (up to ${MAX_UPLOAD_BYTES} bytes). PUT exactly \`size\` bytes to \`uploadUrl\` with the returned \`headers\` (Content-Type and Content-Length are signed) before \`expiresAt\` (15 minutes), then pass \`{ "uploadId": id }\` in the \`attachments\` of POST /tickets/{ticketId}/messages within 24 hours; uploads never attached are deleted after 24 hours. Storage is counted when the upload is attached.`,
    scope: 'tickets:write',
    body: uploadBody,
    response: v.object({
      id: uuid,
      uploadUrl: v.string(),
      method: v.literal('PUT'),
      headers: v.object({ 'Content-Type': v.string(), 'Content-Length': v.string() }),
      expiresAt: isoDateTime,
    }),
    errors: [422],
  }),
  addTicketTag: defineRoute({
    ...base,
    id: 'addTicketTag',
    method: 'POST',
    path: '/tickets/{ticketId}/tags',
    summary: 'Add a tag (idempotent)',
    scope: 'tickets:write',
    params: ticketParams,
    body: v.strictObject({ tag }),
    response: tagsResponse,
  }),
  removeTicketTag: defineRoute({
    ...base,
    id: 'removeTicketTag',
    method: 'DELETE',
    path: '/tickets/{ticketId}/tags',
    summary: 'Remove a tag',
    scope: 'tickets:write',
    params: ticketParams,
    query: { tag },
    response: tagsResponse,
  }),
};

/** The ticket vocabulary, shared by the route schemas and the entities (no database imports here). */
import { CATEGORIES, PRIORITIES, TAG_MAX } from '../../kernel/ticket-terms.js';

export { CATEGORIES, PRIORITIES, TAG_MAX };
export const STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const SENDER_TYPES = ['customer', 'staff'] as const;
export const VISIBILITIES = ['public', 'internal'] as const;
/** `assignee=unassigned` in the list, and the index value of a ticket nobody is assigned to. */
export const UNASSIGNED = 'unassigned';

/** Days one GET /tickets/metrics may span. */
export const METRICS_MAX_DAYS = 366;
/** GET /tickets?sla= and ?sort=. */
export const SLA_FILTERS = ['breached', 'at_risk', 'active'] as const;
export const TICKET_SORTS = ['activity', 'sla_due'] as const;

export type Status = (typeof STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type Category = (typeof CATEGORIES)[number];
export type SenderType = (typeof SENDER_TYPES)[number];

export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;
export const TAGS_PER_CREATE = 20;
export const ATTACHMENTS_PER_MESSAGE = 10;
/**
 * Decoded bytes of inline (base64) attachments allowed per message. Lambda takes at most 6 MiB of event
 * per synchronous invoke; 4,000,000 bytes are 5,333,336 base64 characters, so the largest valid inline
 * request (body, names and headers included) still reaches the handler. Larger files go through uploads.
 */
export const MAX_ATTACHMENT_BYTES = 4_000_000;
/** Bytes one upload (POST /attachments) may declare. */
export const MAX_UPLOAD_BYTES = 25_000_000;
/** How long the presigned PUT of an upload is valid. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** How long an upload can be attached; the bucket's lifecycle rule deletes its object after as long. */
export const UPLOAD_TTL_SECONDS = 24 * 60 * 60;
/** Key prefix of uploaded objects not yet attached (the lifecycle rule's filter). */
export const UPLOAD_PREFIX = 'uploads/';
/**
 * Messages and files one split may move. Each takes two writes (its copy under the new ticket, its
 * removal from the source): 40 of them and the new ticket's own items stay within a transaction's 100.
 */
export const SPLIT_LIMIT = 40;
/** How long a merge can be undone (POST /tickets/{ticketId}/unmerge); after it the merge is final. */
export const UNMERGE_DAYS = 7;
/**
 * Tickets whose threads one ticket may show (merged into it, directly or through tickets merged into
 * those): reading its thread reads each one's partition, so the number bounds the detail's requests.
 */
export const MERGED_PER_TICKET = 20;

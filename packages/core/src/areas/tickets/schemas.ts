import * as v from 'valibot';
import {
  bodyText,
  integer,
  isoDateTime,
  lineText,
  maxChars,
  noControls,
  patchBody,
  unicodeText,
  uuid,
} from '../../kernel/api/schemas.js';
import { plainLine } from '../../kernel/mail/plain-line.js';
import { wellFormed } from '../../kernel/text.js';
import { ticketMetrics, ticketSla } from '../sla/schemas.js';
import { customFieldsInput } from '../ticket-fields/schemas.js';
import { fieldValue } from '../ticket-fields/value-schema.js';
import {
  ATTACHMENTS_PER_MESSAGE,
  BODY_MAX,
  CATEGORIES,
  MAX_UPLOAD_BYTES,
  PRIORITIES,
  SENDER_TYPES,
  STATUSES,
  SUBJECT_MAX,
  TAG_MAX,
  TAGS_PER_CREATE,
  VISIBILITIES,
} from './values.js';

export const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));
/** A tag as a filter or a removal names it. */
export const tag = text(TAG_MAX);
/** A tag being added is a label: one line, no control characters (one stored earlier can still be removed). */
export const newTag = v.pipe(tag, plainLine, v.metadata({ examples: ['billing'] }));
export const status = v.picklist(STATUSES);
export const priority = v.picklist(PRIORITIES);
export const category = v.picklist(CATEGORIES);

export const ticketRow = v.object({
  id: uuid,
  projectId: uuid,
  projectSlug: v.nullable(v.string()),
  number: integer,
  subject: v.string(),
  status,
  priority,
  category,
  assignedTo: v.nullable(v.string()),
  customerEmail: v.string(),
  customerName: v.string(),
  lastSenderType: v.picklist(SENDER_TYPES),
  lastMessageAt: isoDateTime,
  /** Values of the project's ticket fields by key (GET /ticket-fields); {} when none. */
  customFields: v.record(v.string(), fieldValue),
  /** The SLA clock: the policy that applies and each target's state (null when none applies). */
  sla: ticketSla,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

const attachment = v.object({
  id: uuid,
  fileName: v.string(),
  fileSize: integer,
  mimeType: v.string(),
  url: v.string(),
  createdAt: isoDateTime,
});

export const message = v.object({
  id: uuid,
  ticketId: uuid,
  senderType: v.picklist(SENDER_TYPES),
  visibility: v.picklist(VISIBILITIES),
  body: v.string(),
  createdAt: isoDateTime,
  attachments: v.array(attachment),
  /** Only with `?include=original` (GET /tickets/{ticketId}). */
  original: v.optional(v.nullable(v.object({ text: v.string(), html: v.nullable(v.string()) }))),
});

export const customerRef = v.object({ email: v.string(), name: v.string() });

/** POST /tickets's answer (and a split's, with its own additions). */
export const createdTicket = v.object({
  id: uuid,
  number: integer,
  subject: v.string(),
  status,
  priority,
  customer: customerRef,
  customFields: ticketRow.entries.customFields,
  createdAt: isoDateTime,
});

export const ticketDetail = v.object({
  ...ticketRow.entries,
  closedAt: v.nullable(isoDateTime),
  /** The closed ticket this one continues: a customer answered it by mail. */
  followUpOf: v.nullable(uuid),
  /** The ticket this one was split from. */
  splitFrom: v.nullable(uuid),
  /** Tickets split from this one, oldest first. */
  splitInto: v.array(uuid),
  /** The ticket this one was merged into (it is closed and read-only until unmerged). */
  mergedInto: v.nullable(uuid),
  /** When it was merged (it can be unmerged for 7 days). */
  mergedAt: v.nullable(isoDateTime),
  /** Tickets merged into this one (directly or through them), whose messages its thread shows. */
  mergedFrom: v.array(uuid),
  customer: customerRef,
  metrics: ticketMetrics,
  /** Customers of tickets merged into this one: copied on public replies, their mail joins the thread. */
  otherCustomers: v.array(customerRef),
  messages: v.array(message),
  tags: v.array(v.string()),
});

/** The attachment rules, shared by inline attachments and uploads. */
export const fileName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  maxChars(255),
  // Bidi controls (U+202A-U+202E, U+2066-U+2069, and the marks U+200E, U+200F, U+061C) can make
  // `invoice\u202Efdp.exe` read as `invoiceexe.pdf`.
  v.regex(
    /^[^/\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+$/,
    'A file name, without slashes, control or bidi control characters',
  ),
  v.metadata({ examples: ['invoice.pdf'] }),
  // A lone surrogate cannot be written as UTF-8 (object keys, headers).
  v.check(wellFormed, 'A file name of valid Unicode characters'),
);
// Bounded like a name (RFC 6838 allows 127 characters each side) so that an inline request's size is bounded.
export const mimeType = v.pipe(
  v.string(),
  v.maxLength(255),
  v.regex(/^[\w.+-]+\/[\w.+-]+$/, 'A MIME type such as image/png'),
  v.metadata({ examples: ['application/pdf'] }),
);

export const tagsResponse = v.object({ id: uuid, tags: v.array(v.string()) });

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A file sent inline with a message, its bytes in base64. */
export const inlineFile = v.strictObject({
  fileName,
  mimeType,
  // Base64 in whole 4-character groups (the document states the same pattern); linear, where
  // valibot's own base64 regex overflows the stack on megabytes.
  content: v.pipe(
    v.string(),
    v.regex(BASE64, 'Base64-encoded content'),
    v.metadata({ contentEncoding: 'base64', examples: ['aGVsbG8='] }),
  ),
});

/** POST /tickets. */
export const createTicketBody = v.strictObject({
  subject: lineText(SUBJECT_MAX),
  body: bodyText(BODY_MAX, { example: 'It says my password is wrong.' }),
  customer: v.strictObject({
    email: v.pipe(v.string(), v.trim(), v.maxLength(254), v.email()),
    name: v.optional(lineText(200)),
  }),
  priority: v.optional(priority),
  category: v.optional(category),
  tags: v.optional(v.pipe(v.array(newTag), v.maxLength(TAGS_PER_CREATE))),
  assignedTo: v.optional(uuid),
  /** Values of the project's ticket fields by key, each checked against its definition (422 naming `customFields.<key>`). */
  customFields: v.optional(customFieldsInput),
});

/** PATCH /tickets/{ticketId}: at least one field. */
export const updateTicketBody = patchBody(
  {
    status: v.optional(status),
    priority: v.optional(priority),
    category: v.optional(category),
    assignedTo: v.optional(v.nullable(uuid)),
    /** Values to set by key; null removes one. */
    customFields: v.optional(customFieldsInput),
  },
  'Give at least one of status, priority, category, assignedTo, customFields',
);

/** POST /tickets/{ticketId}/messages. */
export const postMessageBody = v.pipe(
  v.strictObject({
    // Kept as written (indentation matters), but never blank, as the create's body and the page's answer.
    body: v.pipe(
      v.string(),
      v.minLength(1),
      maxChars(BODY_MAX),
      v.check((s) => s.trim() !== '', 'Write at least one character that is not white space'),
      unicodeText,
      noControls,
      v.metadata({ examples: ['Thanks for waiting: it works again.'] }),
    ),
    visibility: v.optional(v.picklist(VISIBILITIES)),
    senderType: v.optional(v.picklist(SENDER_TYPES)),
    attachments: v.optional(
      v.pipe(
        v.array(
          v.union(
            [inlineFile, v.strictObject({ uploadId: uuid })],
            'An inline file { fileName, mimeType, content } or an upload { uploadId }',
          ),
        ),
        v.maxLength(ATTACHMENTS_PER_MESSAGE),
      ),
    ),
  }),
  // The customer's own words are never an internal note.
  v.forward(
    v.check(
      (m) => !(m.senderType === 'customer' && m.visibility === 'internal'),
      'A customer message is public: internal is for staff notes',
    ),
    ['visibility'],
  ),
);

/** POST /attachments. */
export const uploadBody = v.strictObject({
  fileName,
  mimeType,
  size: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(MAX_UPLOAD_BYTES, `At most ${MAX_UPLOAD_BYTES} bytes`),
  ),
});

export type CreateTicketBody = v.InferOutput<typeof createTicketBody>;
export type UpdateTicketBody = v.InferOutput<typeof updateTicketBody>;
export type PostMessageBody = v.InferOutput<typeof postMessageBody>;

/** POST /tickets/{ticketId}/merge. */
export const mergeBody = v.strictObject({
  /** The ticket to merge into (a merged one is followed to the ticket it was merged into). */
  into: uuid,
});

/** POST /tickets/{ticketId}/messages/{messageId}/split. */
export const splitBody = v.strictObject({
  /** Move the messages after this one too (staff replies and notes included). */
  includeLater: v.optional(v.boolean()),
});

import * as v from 'valibot';
import { integer, isoDateTime, uuid } from '../http/schemas.js';
import { CATEGORIES, PRIORITIES, SENDER_TYPES, STATUSES, TAG_MAX, VISIBILITIES } from './values.js';

export const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));
export const tag = text(TAG_MAX);
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
});

export const customerRef = v.object({ email: v.string(), name: v.string() });

export const ticketDetail = v.object({
  ...ticketRow.entries,
  closedAt: v.nullable(isoDateTime),
  /** The closed ticket this one continues: a customer answered it by mail. */
  followUpOf: v.nullable(uuid),
  customer: customerRef,
  messages: v.array(message),
  tags: v.array(v.string()),
});

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The attachment rules, shared by inline attachments and uploads. */
export const fileName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(255),
  v.regex(/^[^/\\\u0000-\u001f\u007f]+$/, 'A file name, without slashes or control characters'),
  // A lone surrogate cannot be written as UTF-8 (object keys, headers).
  v.check((s) => !LONE_SURROGATE.test(s), 'A file name of valid Unicode characters'),
);
// Bounded like a name (RFC 6838 allows 127 characters each side) so that an inline request's size is bounded.
export const mimeType = v.pipe(v.string(), v.maxLength(255), v.regex(/^[\w.+-]+\/[\w.+-]+$/, 'A MIME type such as image/png'));

export const tagsResponse = v.object({ id: uuid, tags: v.array(v.string()) });

/** A file sent inline with a message, its bytes in base64. */
export const inlineFile = v.strictObject({
  fileName,
  mimeType,
  // A plain character-class test: valibot's base64 regex overflows the stack on megabytes.
  content: v.pipe(
    v.string(),
    v.check((s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'Base64-encoded content'),
  ),
});

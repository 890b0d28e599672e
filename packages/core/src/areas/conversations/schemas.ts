import * as v from 'valibot';
import { bodyText, filePart, isoDateTime, uuid } from '../../kernel/api/schemas.js';
import { inlineFile } from '../tickets/schemas.js';
import { ATTACHMENTS_PER_MESSAGE, BODY_MAX, STATUSES } from '../tickets/values.js';

const attachment = v.object({
  id: uuid,
  fileName: v.string(),
  fileSize: v.number(),
  mimeType: v.string(),
  url: v.string(),
});

/** The ticket as its customer sees it on the page: its public messages only. */
export const customerTicket = v.object({
  id: uuid,
  number: v.number(),
  subject: v.string(),
  status: v.picklist(STATUSES),
  messages: v.array(
    v.object({
      id: uuid,
      senderType: v.picklist(['customer', 'staff']),
      body: v.string(),
      createdAt: isoDateTime,
      attachments: v.array(attachment),
    }),
  ),
});

/** The page's answer: JSON with inline files (as POST /tickets/{id}/messages takes them), or the page's form with files. */
/** Strict like every body: the page's form has no other field, and JSON callers get unknown keys refused. */
export const pageAnswer = v.strictObject({
  body: bodyText(BODY_MAX, { required: 'Write an answer' }),
  attachments: v.optional(v.pipe(v.array(inlineFile), v.maxLength(ATTACHMENTS_PER_MESSAGE))),
  /** The form's file input (one part, or several); a browser sends an empty part when no file was chosen. */
  file: v.optional(
    v.union([
      filePart,
      v.pipe(v.array(filePart), v.maxLength(ATTACHMENTS_PER_MESSAGE, `At most ${ATTACHMENTS_PER_MESSAGE} files`)),
    ]),
  ),
});

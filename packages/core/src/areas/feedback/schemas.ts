import * as v from 'valibot';
import {
  bodyText,
  csvQuery,
  integer,
  isoDateTime,
  lineText,
  maxChars,
  noControls,
  pageMeta,
  pageQuery,
  unicodeText,
  uuid,
} from '../../kernel/api/schemas.js';
import { customerEmail, customerName } from '../customers/schemas.js';
import { CONVERSATION_STATUSES, SENDER_TYPES, SENTIMENTS, SOURCES } from './values.js';

export const REQUEST_STATUSES = ['pending', 'sent', 'opened', 'responded', 'expired'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

const RATING = 'Expected an integer from 1 to 5';
const rating = v.pipe(v.number(RATING), v.integer(RATING), v.minValue(1, RATING), v.maxValue(5, RATING));
const messageBody = bodyText(10000, { example: 'The new export saves me an hour a week.' });
const customerInput = v.strictObject({ email: customerEmail, name: v.optional(customerName) });

export const createConversationBody = v.strictObject({
  customer: customerInput,
  body: messageBody,
  subject: v.optional(lineText(200)),
  rating: v.optional(rating),
});
export const updateConversationBody = v.strictObject({ status: v.picklist(CONVERSATION_STATUSES) });
export const replyBody = v.strictObject({ body: messageBody });
export const createRequestBody = v.strictObject({
  customer: customerInput,
  ticketId: v.optional(uuid),
  message: v.optional(bodyText(2000, { example: 'How did we do? One click tells us.' })),
});

/** The rating form posts strings; JSON clients send numbers. */
export const submitRatingBody = v.strictObject({
  rating: v.union(
    [rating, v.pipe(v.string(), v.regex(/^[1-5]$/, RATING), v.metadata({ examples: ['5'] }), v.transform(Number))],
    RATING,
  ),
  comment: v.optional(
    v.pipe(
      v.string(),
      maxChars(5000),
      noControls,
      unicodeText,
      v.metadata({ examples: ['Quick and friendly, thank you.'] }),
      v.trim(),
      v.transform((s) => s || undefined),
    ),
  ),
});

export const conversationListQuery = { ...pageQuery(), status: csvQuery(CONVERSATION_STATUSES) };
export const requestListQuery = { ...pageQuery(), status: csvQuery(REQUEST_STATUSES) };

const customerRef = v.object({ email: v.string(), name: v.nullable(v.string()) });
const nullableTime = v.nullable(isoDateTime);

const conversationFields = {
  id: uuid,
  customer: customerRef,
  subject: v.string(),
  status: v.picklist(CONVERSATION_STATUSES),
  rating: v.nullable(integer),
  sentiment: v.picklist(SENTIMENTS),
  source: v.picklist(SOURCES),
  requestId: v.nullable(uuid),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};
export const conversationRowSchema = v.object(conversationFields);
export const conversationSchema = v.object({
  ...conversationFields,
  messages: v.array(
    v.object({ id: uuid, senderType: v.picklist(SENDER_TYPES), body: v.string(), createdAt: isoDateTime }),
  ),
});

export const requestSchema = v.object({
  id: uuid,
  customer: customerRef,
  ticketId: v.nullable(uuid),
  message: v.nullable(v.string()),
  status: v.picklist(REQUEST_STATUSES),
  rating: v.nullable(integer),
  conversationId: v.nullable(uuid),
  emailId: v.nullable(uuid),
  sentAt: nullableTime,
  openedAt: nullableTime,
  respondedAt: nullableTime,
  expiredAt: nullableTime,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

const page = { ...pageMeta };
export const conversationListSchema = v.object({ conversations: v.array(conversationRowSchema), ...page });
export const requestListSchema = v.object({ requests: v.array(requestSchema), ...page });

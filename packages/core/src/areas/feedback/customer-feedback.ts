import type { EntityItem } from 'electrodb';
import type { TenantKey } from '../customers/record.js';
import { CustomerFeedback } from './entities.js';
import { type ConversationItem, type RequestItem, requestStatus } from './present.js';
import type { STORED_REQUEST_STATUSES } from './values.js';

export type FeedbackCopy = Parameters<typeof CustomerFeedback.create>[0];

const copyKey = (item: TenantKey & { customerId: string; createdAt: string }, feedbackId: string) => ({
  projectId: item.projectId,
  env: item.env,
  customerId: item.customerId,
  createdAt: item.createdAt,
  feedbackId,
});

export const conversationCopy = (c: ConversationItem): FeedbackCopy => ({
  ...copyKey(c, c.conversationId),
  type: 'conversation',
  status: c.status,
  subject: c.subject,
  ...(c.rating !== undefined ? { rating: c.rating } : {}),
  sentiment: c.sentiment,
});

export const requestCopy = (r: RequestItem): FeedbackCopy => ({
  ...copyKey(r, r.requestId),
  type: 'request',
  status: r.status,
  ...(r.rating !== undefined ? { rating: r.rating } : {}),
  ...(r.sentAt ? { sentAt: r.sentAt } : {}),
});

/** The patch of a conversation's copy (for a transaction holding the change). */
export const conversationCopyPatch = (c: ConversationItem) => CustomerFeedback.patch(copyKey(c, c.conversationId));
export const requestCopyPatch = (r: RequestItem) => CustomerFeedback.patch(copyKey(r, r.requestId));
export const requestCopyDelete = (r: RequestItem) => CustomerFeedback.delete(copyKey(r, r.requestId));

type CopyItem = EntityItem<typeof CustomerFeedback>;

/** A copy as the customer detail lists it. */
export const toCustomerFeedback = (copy: CopyItem, now = Date.now()) => ({
  type: copy.type,
  id: copy.feedbackId,
  status:
    copy.type === 'request'
      ? (requestStatus({ ...copy, status: copy.status as (typeof STORED_REQUEST_STATUSES)[number] }, now) as string)
      : (copy.status as string),
  subject: copy.subject ?? null,
  rating: copy.rating ?? null,
  sentiment: copy.sentiment ?? null,
  createdAt: copy.createdAt,
});

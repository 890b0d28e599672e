import type { EntityItem } from 'electrodb';
import type { FeedbackConversation, FeedbackMessage, FeedbackRequest } from './entities.js';
import type { RequestStatus } from './schemas.js';

export type ConversationItem = EntityItem<typeof FeedbackConversation>;
export type MessageItem = EntityItem<typeof FeedbackMessage>;
export type RequestItem = EntityItem<typeof FeedbackRequest>;

/** A request not answered within 30 days of its email is expired (derived on read, never stored). */
export const REQUEST_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** What a request's status derives from: the request, or its copy under the customer. */
type RequestTimes = { status: RequestItem['status']; sentAt?: string; createdAt: string };

export const expiryOf = (item: RequestTimes) =>
  item.status === 'responded' ? undefined : new Date(Date.parse(item.sentAt ?? item.createdAt) + REQUEST_LIFETIME_MS);

export const requestStatus = (item: RequestTimes, now = Date.now()): RequestStatus => {
  const expiry = expiryOf(item);
  return expiry && expiry.getTime() <= now ? 'expired' : item.status;
};

const customerOf = (item: { customerEmail: string; customerName?: string }) => ({
  email: item.customerEmail,
  name: item.customerName ?? null,
});

export const toConversationRow = (item: ConversationItem) => ({
  id: item.conversationId,
  customer: customerOf(item),
  subject: item.subject,
  status: item.status,
  rating: item.rating ?? null,
  sentiment: item.sentiment,
  source: item.source,
  requestId: item.requestId ?? null,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
});

export const toConversation = (item: ConversationItem, messages: MessageItem[]) => ({
  ...toConversationRow(item),
  messages: messages.map((m) => ({ id: m.messageId, senderType: m.senderType, body: m.body, createdAt: m.createdAt })),
});
export type ConversationView = ReturnType<typeof toConversation>;

export const toRequest = (item: RequestItem, now = Date.now()) => {
  const status = requestStatus(item, now);
  return {
    id: item.requestId,
    customer: customerOf(item),
    ticketId: item.ticketId ?? null,
    message: item.message ?? null,
    status,
    rating: item.rating ?? null,
    conversationId: item.conversationId ?? null,
    emailId: item.emailId ?? null,
    sentAt: item.sentAt ?? null,
    openedAt: item.openedAt ?? null,
    respondedAt: item.respondedAt ?? null,
    expiredAt: status === 'expired' ? (expiryOf(item)?.toISOString() ?? null) : null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
};

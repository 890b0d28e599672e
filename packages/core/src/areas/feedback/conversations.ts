import { randomUUID } from 'node:crypto';
import { paginate } from '../../kernel/api/list.js';
import { commit, put, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { must } from '../../kernel/must.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { matchOrCreateCustomer } from '../customers/match.js';
import type { TenantKey, TenantRef } from '../customers/record.js';
import { prepareSystemEmail } from '../emails/system-send.js';
import { escapeHtml } from '../templates/escape.js';
import { eventItem } from '../webhooks/emit.js';
import { conversationCopy, conversationCopyPatch } from './customer-feedback.js';
import { CustomerFeedback, FeedbackConversation, FeedbackMessage, feedbackService } from './entities.js';
import {
  type ConversationItem,
  type ConversationView,
  type MessageItem,
  toConversation,
  toConversationRow,
} from './present.js';
import { sentimentOf } from './sentiment.js';
import { feedbackLink } from './token.js';
import type { CONVERSATION_STATUSES } from './values.js';

type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** The conversation and its messages: one Query on the conversation's item collection. */
export async function loadThread(ref: TenantKey, conversationId: string) {
  const { data } = await feedbackService.collections
    .thread({ projectId: ref.projectId, env: ref.env, conversationId })
    .go({ pages: 'all' });
  const conversation = data.conversation[0];
  return conversation ? { conversation, messages: data.message } : undefined;
}

const requireThread = async (ref: TenantKey, conversationId: string) => {
  const thread = await loadThread(ref, conversationId);
  if (!thread) throw errors.notFound('Conversation');
  return thread;
};

export interface NewConversation {
  customer: { id: string; email: string; name: string | null };
  subject: string;
  rating?: number;
  /** The customer's words; a rating alone opens a conversation without messages. */
  body?: string;
  source: 'api' | 'request' | 'portal';
  requestId?: string;
}

/** The items of a new conversation, for the caller's transaction. */
export async function conversationRecords(ref: TenantKey, input: NewConversation) {
  const now = new Date().toISOString();
  const conversation: ConversationItem = {
    projectId: ref.projectId,
    env: ref.env,
    conversationId: randomUUID(),
    customerId: input.customer.id,
    customerEmail: input.customer.email,
    ...(input.customer.name ? { customerName: input.customer.name } : {}),
    subject: input.subject,
    status: 'open',
    ...(input.rating !== undefined ? { rating: input.rating } : {}),
    sentiment: await sentimentOf(input.rating, input.body),
    source: input.source,
    ...(input.requestId ? { requestId: input.requestId } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const message: MessageItem | undefined = input.body
    ? {
        projectId: ref.projectId,
        env: ref.env,
        conversationId: conversation.conversationId,
        messageId: randomUUID(),
        senderType: 'customer',
        body: input.body,
        createdAt: now,
      }
    : undefined;
  return { conversation, message };
}

/** The feedback.submitted event of a new conversation, as an item of the write that records it. */
export function feedbackSubmittedItem(
  ref: TenantRef,
  view: ConversationView,
  requestId: string | null,
  comment: string | null,
) {
  const { id, subject, rating, sentiment, source, customer } = view;
  return eventItem(ref, 'feedback.submitted', {
    conversation: { id, subject, rating, sentiment, source },
    customer,
    requestId,
    comment,
  });
}

const subjectFrom = (body: string) => {
  const line = (body.split('\n', 1)[0] ?? '').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

/** POST /feedback/conversations: the customer's feedback, recorded by the caller. */
export async function createConversation(
  ctx: TenantContext,
  input: { customer: { email: string; name?: string }; body: string; subject?: string; rating?: number },
) {
  const { customer } = await matchOrCreateCustomer(ctx, input.customer);
  const { conversation, message } = await conversationRecords(ctx, {
    customer: { ...customer, name: input.customer.name ?? customer.name },
    subject: input.subject ?? subjectFrom(input.body),
    rating: input.rating,
    body: input.body,
    source: 'api',
  });
  const first = must(message, 'the first message of a conversation with a body');
  const view = toConversation(conversation, [first]);
  await commit({
    items: () => ({
      conversation: put(FeedbackConversation.create(conversation)),
      message: put(FeedbackMessage.create(first)),
      copy: put(CustomerFeedback.create(conversationCopy(conversation))),
      event: feedbackSubmittedItem(ctx, view, null, input.body),
    }),
    exhausted: () => errors.conflict('The conversation'),
  });
  return view;
}

export async function getConversation(ref: TenantKey, conversationId: string) {
  const { conversation, messages } = await requireThread(ref, conversationId);
  return toConversation(conversation, messages);
}

/** PATCH /feedback/conversations/{id}: close or reopen, with the customer's copy. */
export async function setConversationStatus(ref: TenantKey, conversationId: string, status: ConversationStatus) {
  const { conversation, messages } = await requireThread(ref, conversationId);
  const updatedAt = new Date().toISOString();
  await commit({
    items: () => ({
      conversation: update(
        FeedbackConversation.patch({ projectId: ref.projectId, env: ref.env, conversationId }).set({
          status,
          updatedAt,
        }),
      ),
      customerCopy: update(conversationCopyPatch(conversation).set({ status })),
    }),
    optional: ['customerCopy'],
    // Deleted meanwhile.
    refused: () => {
      throw errors.notFound('Conversation');
    },
    exhausted: () => errors.conflict('The conversation'),
  });
  return toConversation({ ...conversation, status, updatedAt }, messages);
}

const closedError = () => problem('feedback.conversation_closed');

/** POST /feedback/conversations/{id}/messages: a staff reply, emailed to the customer with a link to the thread. */
export async function replyToConversation(ctx: TenantContext, conversationId: string, body: string) {
  const { conversation, messages } = await requireThread(ctx, conversationId);
  if (conversation.status !== 'open') throw closedError();
  const now = new Date().toISOString();
  const message: MessageItem = {
    projectId: ctx.projectId,
    env: ctx.env,
    conversationId,
    messageId: randomUUID(),
    senderType: 'staff',
    body,
    createdAt: now,
  };
  const link = feedbackLink({ kind: 'c', projectId: ctx.projectId, env: ctx.env, id: conversationId });
  const mail = prepareSystemEmail(ctx, {
    to: conversation.customerEmail,
    subject: `Re: ${conversation.subject}`,
    markdown: `${escapeHtml(body)}\n\n---\n\n[View the whole conversation](${link})`,
    kind: 'feedback_reply',
    metadata: { conversationId },
  });
  await commit({
    items: () => ({
      message: put(FeedbackMessage.create(message)),
      conversation: update(
        FeedbackConversation.patch({ projectId: ctx.projectId, env: ctx.env, conversationId })
          .set({ updatedAt: now })
          .where((attr, op) => op.eq(attr.status, 'open')),
      ),
      mail: mail.writes,
    }),
    refused: () => {
      throw closedError();
    },
    exhausted: () => errors.conflict('The conversation'),
  });
  return toConversation({ ...conversation, updatedAt: now }, [...messages, message]);
}

/** Newest first; a status filter reads only that status's index partition(s). */
export async function listConversations(
  ref: TenantKey,
  query: { page: number; limit: number; status?: ConversationStatus[] },
) {
  const key = { projectId: ref.projectId, env: ref.env };
  let items: ConversationItem[];
  if (query.status) {
    const parts = await Promise.all(
      [...new Set(query.status)].map((status) =>
        FeedbackConversation.query.byStatus({ ...key, status }).go({ pages: 'all' }),
      ),
    );
    items = parts.flatMap((p) => p.data).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  } else {
    ({ data: items } = await FeedbackConversation.query.byProject(key).go({ pages: 'all', order: 'desc' }));
  }
  const { rows, ...page } = paginate(items, query.page, query.limit);
  return { conversations: rows.map(toConversationRow), ...page };
}

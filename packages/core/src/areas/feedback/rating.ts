import { commit, put, update } from '../../kernel/db/commit.js';
import type { TenantRef } from '../customers/record.js';
import { conversationRecords, feedbackSubmittedItem, loadThread } from './conversations.js';
import { conversationCopy, requestCopyPatch } from './customer-feedback.js';
import { CustomerFeedback, FeedbackConversation, FeedbackMessage, FeedbackRequest } from './entities.js';
import { notFoundPage, ratingPage, threadPage } from './pages.js';
import { requestStatus, toConversation } from './present.js';
import { findRequestItem } from './requests.js';
import { type TokenClaims, verifyFeedbackToken } from './token.js';

/** A request whose link still works: not yet answered, not expired. */
async function openRequest(claims: TokenClaims | undefined) {
  if (claims?.kind !== 'r') return undefined;
  const item = await findRequestItem(claims, claims.id);
  if (!item) return undefined;
  const status = requestStatus(item);
  return status === 'responded' || status === 'expired' ? undefined : item;
}

/**
 * GET /public/feedback/{token}: the rating form (marking the request `opened`), or, for a reply's
 * link, the read-only thread. Anything else is the 404 page.
 */
export async function feedbackPage(token: string): Promise<{ status: number; html: string }> {
  const claims = verifyFeedbackToken(token);
  if (claims?.kind === 'c') {
    const thread = await loadThread(claims, claims.id);
    return thread
      ? { status: 200, html: threadPage(toConversation(thread.conversation, thread.messages)) }
      : { status: 404, html: notFoundPage() };
  }
  const request = await openRequest(claims);
  if (!request) return { status: 404, html: notFoundPage() };
  if (request.status !== 'opened') {
    const openedAt = new Date().toISOString();
    // Opened or answered meanwhile (refused): the page is still the right answer until a rating is posted.
    await commit({
      items: () => ({
        request: update(
          FeedbackRequest.patch({ projectId: request.projectId, env: request.env, requestId: request.requestId })
            .set({ status: 'opened', openedAt, updatedAt: openedAt })
            .where((attr, op) => `${op.eq(attr.status, 'pending')} OR ${op.eq(attr.status, 'sent')}`),
        ),
        customerCopy: update(requestCopyPatch(request).set({ status: 'opened' })),
      }),
      optional: ['customerCopy'],
      refused: () => 'stop',
      exhausted: () => new Error('Opening the feedback request kept colliding'),
    });
  }
  return { status: 200, html: ratingPage(request.message) };
}

/**
 * POST /public/feedback/{token}: records the rating in a new conversation and marks the request
 * `responded` in one transaction whose condition (not yet responded) makes the link single use.
 * Undefined when the link is not (or no longer) valid.
 */
export async function submitRating(token: string, input: { rating: number; comment?: string }) {
  const request = await openRequest(verifyFeedbackToken(token));
  if (!request) return undefined;
  const ref: TenantRef = { accountId: request.accountId, projectId: request.projectId, env: request.env };
  const { conversation, message } = await conversationRecords(ref, {
    customer: { id: request.customerId, email: request.customerEmail, name: request.customerName ?? null },
    subject: `Rated ${input.rating} out of 5`,
    rating: input.rating,
    body: input.comment,
    source: 'request',
    requestId: request.requestId,
  });
  const now = conversation.createdAt;
  const view = toConversation(conversation, message ? [message] : []);
  const committed = await commit({
    items: () => ({
      request: update(
        FeedbackRequest.patch({ projectId: request.projectId, env: request.env, requestId: request.requestId })
          .set({
            status: 'responded',
            respondedAt: now,
            rating: input.rating,
            conversationId: conversation.conversationId,
            updatedAt: now,
          })
          .where((attr, op) => op.ne(attr.status, 'responded')),
      ),
      conversation: put(FeedbackConversation.create(conversation)),
      message: message && put(FeedbackMessage.create(message)),
      conversationCopy: put(CustomerFeedback.create(conversationCopy(conversation))),
      requestCopy: update(requestCopyPatch(request).set({ status: 'responded', rating: input.rating })),
      event: feedbackSubmittedItem(ref, view, request.requestId, input.comment ?? null),
    }),
    optional: ['requestCopy'],
    // Answered by a concurrent submission (or deleted): the link is used up.
    refused: (names) => (names.has('request') ? 'stop' : undefined),
    exhausted: () => new Error('Rating submission kept colliding'),
  });
  return committed ? view : undefined;
}

import { randomUUID } from 'node:crypto';
import { paginate } from '../../kernel/api/list.js';
import { commit, put, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { matchOrCreateCustomer } from '../customers/match.js';
import type { TenantKey } from '../customers/record.js';
import { sendSystemEmail } from '../emails/system-send.js';
import { escapeHtml } from '../templates/escape.js';
import { requestCopy, requestCopyDelete, requestCopyPatch } from './customer-feedback.js';
import { CustomerFeedback, FeedbackRequest } from './entities.js';
import { type RequestItem, requestStatus, toRequest } from './present.js';
import type { RequestStatus } from './schemas.js';
import { feedbackLink } from './token.js';
import { STORED_REQUEST_STATUSES } from './values.js';

const ratingEmail = (message: string | undefined, link: string) =>
  [
    // The caller's message may carry customer text: shown as written, never as markup.
    message !== undefined ? escapeHtml(message) : 'Thank you for getting in touch. We would love to know how we did.',
    `**How would you rate your experience?** [Rate us from 1 to 5](${link})`,
    `If the button does not work, open this address: ${link}`,
  ].join('\n\n');

/**
 * POST /feedback/requests: records the request (`pending`), emails the rating link and marks it `sent`
 * once the email pipeline has accepted the email. An email that cannot be sent leaves no request.
 */
export async function createRequest(
  ctx: TenantContext,
  input: { customer: { email: string; name?: string }; ticketId?: string; message?: string },
) {
  const { customer } = await matchOrCreateCustomer(ctx, input.customer);
  const key = { projectId: ctx.projectId, env: ctx.env, requestId: randomUUID() };
  const now = new Date().toISOString();
  const name = input.customer.name ?? customer.name;
  const item: RequestItem = {
    ...key,
    accountId: ctx.accountId,
    customerId: customer.id,
    customerEmail: customer.email,
    ...(name ? { customerName: name } : {}),
    ...(input.ticketId ? { ticketId: input.ticketId } : {}),
    ...(input.message ? { message: input.message } : {}),
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  };
  await commit({
    items: () => ({
      request: put(FeedbackRequest.create(item)),
      customerCopy: put(CustomerFeedback.create(requestCopy(item))),
    }),
    exhausted: () => errors.conflict('The feedback request'),
  });
  const link = feedbackLink({ kind: 'r', projectId: ctx.projectId, env: ctx.env, id: key.requestId });
  let email: { id: string };
  try {
    email = await sendSystemEmail(ctx, {
      to: customer.email,
      subject: 'How did we do?',
      markdown: ratingEmail(input.message, link),
      kind: 'feedback_request',
      metadata: { feedbackRequestId: key.requestId },
    });
  } catch (err) {
    await Promise.all([
      FeedbackRequest.delete(key).go({ response: 'none' }),
      requestCopyDelete(item).go({ response: 'none' }),
    ]);
    throw err;
  }
  const sent = { status: 'sent' as const, sentAt: new Date().toISOString(), emailId: email.id };
  const committed = await commit({
    items: () => ({
      // Only from pending: the customer may already have opened the link.
      request: update(
        FeedbackRequest.patch(key)
          .set({ ...sent, updatedAt: sent.sentAt })
          .where((attr, op) => op.eq(attr.status, 'pending')),
      ),
      customerCopy: update(requestCopyPatch(item).set({ status: sent.status, sentAt: sent.sentAt })),
    }),
    optional: ['customerCopy'],
    refused: () => 'stop',
    exhausted: () => errors.conflict('The feedback request'),
  });
  if (!committed) return getRequest(ctx, key.requestId);
  return toRequest({ ...item, ...sent, updatedAt: sent.sentAt });
}

export async function findRequestItem(ref: TenantKey, requestId: string) {
  const { data } = await FeedbackRequest.get({ projectId: ref.projectId, env: ref.env, requestId }).go();
  return data ?? undefined;
}

export async function getRequest(ref: TenantKey, requestId: string) {
  const item = await findRequestItem(ref, requestId);
  if (!item) throw errors.notFound('Feedback request');
  return toRequest(item);
}

/** `expired` is derived, so filtering on it reads the statuses a request can expire from. */
const storedStatusesFor = (wanted: RequestStatus[]) =>
  [
    ...new Set(
      wanted.flatMap((s) => (s === 'expired' ? STORED_REQUEST_STATUSES.filter((x) => x !== 'responded') : [s])),
    ),
  ] as (typeof STORED_REQUEST_STATUSES)[number][];

export async function listRequests(ref: TenantKey, query: { page: number; limit: number; status?: RequestStatus[] }) {
  const key = { projectId: ref.projectId, env: ref.env };
  const now = Date.now();
  let items: RequestItem[];
  if (query.status) {
    const wanted = new Set(query.status);
    const parts = await Promise.all(
      storedStatusesFor(query.status).map((status) =>
        FeedbackRequest.query.byStatus({ ...key, status }).go({ pages: 'all' }),
      ),
    );
    items = parts
      .flatMap((p) => p.data)
      .filter((item) => wanted.has(requestStatus(item, now)))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  } else {
    ({ data: items } = await FeedbackRequest.query.byProject(key).go({ pages: 'all', order: 'desc' }));
  }
  const { rows, ...page } = paginate(items, query.page, query.limit);
  return { requests: rows.map((item) => toRequest(item, now)), ...page };
}

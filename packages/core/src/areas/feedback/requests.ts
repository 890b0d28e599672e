import { randomUUID } from 'node:crypto';
import { paginate } from '../../kernel/api/list.js';
import { commit, put } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { matchOrCreateCustomer } from '../customers/match.js';
import type { TenantKey } from '../customers/record.js';
import { prepareSystemEmail } from '../emails/system-send.js';
import { escapeHtml } from '../templates/escape.js';
import { ticketCheck } from '../tickets/ticket-check.js';
import { requestCopy } from './customer-feedback.js';
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
 * POST /feedback/requests: the request, its copy under the customer, and the rating mail (its Email
 * Logs row and its send) commit in one transaction: a request is `sent` exactly when its mail is queued.
 */
export async function createRequest(
  ctx: TenantContext,
  input: { customer: { email: string; name?: string }; ticketId?: string; message?: string },
) {
  const { customer } = await matchOrCreateCustomer(ctx, input.customer);
  const key = { projectId: ctx.projectId, env: ctx.env, requestId: randomUUID() };
  const now = new Date().toISOString();
  const name = input.customer.name ?? customer.name;
  const link = feedbackLink({ kind: 'r', projectId: ctx.projectId, env: ctx.env, id: key.requestId });
  const mail = prepareSystemEmail(ctx, {
    to: customer.email,
    subject: 'How did we do?',
    markdown: ratingEmail(input.message, link),
    kind: 'feedback_request',
    metadata: { feedbackRequestId: key.requestId },
  });
  const item: RequestItem = {
    ...key,
    accountId: ctx.accountId,
    customerId: customer.id,
    customerEmail: customer.email,
    ...(name ? { customerName: name } : {}),
    ...(input.ticketId ? { ticketId: input.ticketId } : {}),
    ...(input.message ? { message: input.message } : {}),
    status: 'sent',
    sentAt: now,
    emailId: mail.id,
    createdAt: now,
    updatedAt: now,
  };
  await commit({
    items: () => ({
      request: put(FeedbackRequest.create(item)),
      customerCopy: put(CustomerFeedback.create(requestCopy(item))),
      mail: mail.writes,
      // The ticket it names must be one of this project and environment: a condition, not a read before.
      ticket: input.ticketId !== undefined && ticketCheck(ctx, input.ticketId),
    }),
    refused: (names) => {
      if (names.has('ticket')) throw problem('feedback.ticket_not_found');
    },
    exhausted: () => errors.conflict('The feedback request'),
  });
  return toRequest(item);
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

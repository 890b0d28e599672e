import { Service } from 'electrodb';
import { entityConfig } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { Customer } from '../customers/entities.js';
import type { TenantKey } from '../customers/record.js';
import { CustomerFeedback } from '../feedback/entities.js';
import { CustomerTicket } from '../tickets/entities.js';

const history = lazy(
  () => new Service({ customer: Customer, ticket: CustomerTicket, feedback: CustomerFeedback }, entityConfig()),
);

/**
 * Rows per read. Newest first, the record comes first and then both kinds interleaved in time: one
 * page holds the latest 20 of each unless one kind has far outnumbered the other lately.
 */
const PAGE = 100;

/**
 * The customer's record with its latest `each` ticket copies and feedback copies: one Query; a further
 * page only while a kind still has fewer than `each` and the partition holds more.
 */
export async function readCustomerHistory(ref: TenantKey, customerId: string, each: number) {
  const key = { projectId: ref.projectId, env: ref.env, customerId };
  const customer = [];
  const tickets = [];
  const feedback = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<ReturnType<typeof history.collections.customerHistory>['go']>> =
      await history.collections.customerHistory(key).go({ order: 'desc', limit: PAGE, cursor });
    customer.push(...page.data.customer);
    tickets.push(...page.data.ticket);
    feedback.push(...page.data.feedback);
    cursor = page.cursor;
  } while (cursor && customer.length && (tickets.length < each || feedback.length < each));
  return { customer: customer[0] ?? null, tickets: tickets.slice(0, each), feedback: feedback.slice(0, each) };
}

/** Every row of the customer's partition (the delete's list of copies). */
export async function allCustomerHistory(ref: TenantKey, customerId: string) {
  const { data } = await history.collections
    .customerHistory({ projectId: ref.projectId, env: ref.env, customerId })
    .go({ pages: 'all' });
  return data;
}

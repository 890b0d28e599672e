import type { TenantContext } from '../auth/context.js';
import { latestFeedbackForCustomer } from '../feedback/customer-feedback.js';
import { latestTicketsForCustomer } from '../tickets/customer-tickets.js';
import { getCustomerItem } from './read.js';
import { toCustomer } from './record.js';

const HISTORY = 20;

/** GET /customers/{id}: the record, its latest tickets and its latest feedback, read in parallel (one request each). */
export async function getCustomerDetail(ctx: TenantContext, customerId: string) {
  const [item, tickets, feedback] = await Promise.all([
    getCustomerItem(ctx, customerId),
    latestTicketsForCustomer(ctx, customerId, HISTORY),
    latestFeedbackForCustomer(ctx, customerId, HISTORY),
  ]);
  return { ...toCustomer(item), tickets, feedback };
}

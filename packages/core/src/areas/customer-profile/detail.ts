import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { toCustomer } from '../customers/record.js';
import { toCustomerFeedback } from '../feedback/customer-feedback.js';
import { toCustomerTicket } from '../tickets/customer-tickets.js';
import { readCustomerHistory } from './history.js';

const LATEST = 20;

/** GET /customers/{id}: the record, its latest tickets and its latest feedback, one Query on its partition. */
export async function getCustomerDetail(ctx: TenantContext, customerId: string) {
  const { customer, tickets, feedback } = await readCustomerHistory(ctx, customerId, LATEST);
  if (!customer) throw errors.notFound('Customer');
  const now = Date.now();
  return {
    ...toCustomer(customer),
    tickets: tickets.map(toCustomerTicket),
    feedback: feedback.map((f) => toCustomerFeedback(f, now)),
  };
}

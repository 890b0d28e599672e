import { commit, remove } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { Customer, CustomerKey } from '../customers/entities.js';
import type { TenantKey } from '../customers/record.js';
import { CustomerFeedback } from '../feedback/entities.js';
import { CustomerTicket } from '../tickets/entities.js';
import { eventItem } from '../webhooks/emit.js';
import { allCustomerHistory } from './history.js';

/**
 * DELETE /customers/{id}: the customer and its uniqueness items go together, then its ticket and
 * feedback copies. Tickets and feedback are not touched: they carry their own copy of the customer's
 * email and name.
 */
export async function deleteCustomer(ctx: TenantKey & { accountId: string }, customerId: string) {
  const key = { projectId: ctx.projectId, env: ctx.env };
  const {
    customer: [current],
    ticket: tickets,
    feedback,
  } = await allCustomerHistory(ctx, customerId);
  if (!current) throw errors.notFound('Customer');
  await commit({
    items: () => ({
      customer: remove(Customer.delete({ ...key, customerId }).where((attr, op) => op.exists(attr.customerId))),
      email: remove(CustomerKey.delete({ ...key, kind: 'email', value: current.email })),
      externalId:
        current.externalId !== undefined &&
        remove(CustomerKey.delete({ ...key, kind: 'externalId', value: current.externalId })),
      event: eventItem(ctx, 'customer.deleted', { customer: { id: customerId, email: current.email } }),
    }),
    // Deleted meanwhile.
    refused: () => {
      throw errors.notFound('Customer');
    },
    exhausted: () => errors.conflict('The customer'),
  });
  await Promise.all([
    tickets.length ? CustomerTicket.delete(tickets).go() : undefined,
    feedback.length ? CustomerFeedback.delete(feedback).go() : undefined,
  ]);
  return { id: customerId, deleted: true as const };
}

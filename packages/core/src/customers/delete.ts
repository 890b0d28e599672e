import { CustomerFeedback } from '../feedback/entities.js';
import { errors } from '../http/errors.js';
import { CustomerTicket } from '../tickets/entities.js';
import { customerService } from './entities.js';
import { allCustomerHistory } from './history.js';
import type { TenantKey } from './record.js';

/**
 * DELETE /customers/{id}: the customer and its uniqueness items go together, then its ticket and
 * feedback copies. Tickets and feedback are not touched: they carry their own copy of the customer's
 * email and name.
 */
export async function deleteCustomer(ctx: TenantKey, customerId: string) {
  const key = { projectId: ctx.projectId, env: ctx.env };
  const { customer: [current], ticket: tickets, feedback } = await allCustomerHistory(ctx, customerId);
  if (!current) throw errors.notFound('Customer');
  const result = await customerService.transaction
    .write(({ customer, customerKey }) => [
      customer.delete({ ...key, customerId }).where((attr, op) => op.exists(attr.customerId)).commit(),
      customerKey.delete({ ...key, kind: 'email', value: current.email }).commit(),
      ...(current.externalId ? [customerKey.delete({ ...key, kind: 'externalId', value: current.externalId }).commit()] : []),
    ])
    .go();
  if (result.canceled) {
    if (result.data[0]?.code === 'ConditionalCheckFailed') throw errors.notFound('Customer');
    throw new Error(`Customer delete cancelled: ${result.data.map((d) => d.code).join(', ')}`);
  }
  await Promise.all([
    tickets.length ? CustomerTicket.delete(tickets).go() : undefined,
    feedback.length ? CustomerFeedback.delete(feedback).go() : undefined,
  ]);
  return { id: customerId, deleted: true as const };
}

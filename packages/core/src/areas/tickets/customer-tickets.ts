import type { EntityItem } from 'electrodb';
import type { TenantContext } from '../../kernel/tenant.js';
import { CustomerTicket } from './entities.js';

type CustomerTicketItem = EntityItem<typeof CustomerTicket>;

export const toCustomerTicket = ({ ticketId, number, subject, status, createdAt }: CustomerTicketItem) => ({
  id: ticketId,
  number,
  subject,
  status,
  createdAt,
});

/** A customer's latest tickets, newest first, in one Query on the customer's ticket copies. */
export async function latestTicketsForCustomer(ctx: TenantContext, customerId: string, limit: number) {
  const { data } = await CustomerTicket.query
    .byCustomer({ projectId: ctx.projectId, env: ctx.env, customerId })
    .go({ order: 'desc', limit });
  return data.map(toCustomerTicket);
}

import { paginate } from '../../kernel/api/list.js';
import { Customer } from './entities.js';
import { findCustomerBy } from './read.js';
import { type CustomerItem, type TenantKey, toCustomer } from './record.js';

const matches = (item: CustomerItem, needle: string) =>
  [item.email, item.name, item.externalId].some((field) => field?.toLowerCase().includes(needle));

/**
 * Newest first. externalId is one lookup through its uniqueness item; a free-text search has to read
 * the project's customers (one paginated Query on the creation index) and filter them.
 */
export async function listCustomers(
  ctx: TenantKey,
  query: { page: number; limit: number; search?: string; externalId?: string },
) {
  let items: CustomerItem[];
  if (query.externalId !== undefined) {
    const one = await findCustomerBy(ctx, 'externalId', query.externalId);
    items = one ? [one] : [];
  } else {
    ({ data: items } = await Customer.query
      .byCreated({ projectId: ctx.projectId, env: ctx.env })
      .go({ pages: 'all', order: 'desc' }));
  }
  const needle = query.search?.toLowerCase();
  if (needle) items = items.filter((item) => matches(item, needle));
  const { rows, ...page } = paginate(items, query.page, query.limit);
  return { customers: rows.map(toCustomer), ...page };
}

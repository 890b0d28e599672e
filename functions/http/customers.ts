import { customerRoutes } from '@helpdesk/core/customers/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const list = onFirstCall(() => import('@helpdesk/core/customers/list'));
const create = onFirstCall(() => import('@helpdesk/core/customers/create'));
const detail = onFirstCall(() => import('@helpdesk/core/customers/detail'));
const update = onFirstCall(() => import('@helpdesk/core/customers/update'));
const remove = onFirstCall(() => import('@helpdesk/core/customers/delete'));

export const handler = createGroupHandler(customerRoutes, {
  listCustomers: async ({ ctx, query }) => (await list()).listCustomers(ctx, query),
  createCustomer: async ({ ctx, body }) => (await create()).createCustomer(ctx, body),
  getCustomer: async ({ ctx, params }) => (await detail()).getCustomerDetail(ctx, params.id),
  updateCustomer: async ({ ctx, params, body }) => (await update()).updateCustomer(ctx, params.id, body),
  deleteCustomer: async ({ ctx, params }) => (await remove()).deleteCustomer(ctx, params.id),
});

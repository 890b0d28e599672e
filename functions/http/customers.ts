import { customerRoutes } from '@helpdesk/core/areas/customer-profile/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  list: () => import('@helpdesk/core/areas/customers/list'),
  create: () => import('@helpdesk/core/areas/customers/create'),
  detail: () => import('@helpdesk/core/areas/customer-profile/detail'),
  update: () => import('@helpdesk/core/areas/customers/update'),
  remove: () => import('@helpdesk/core/areas/customer-profile/delete'),
});

export const handler = createGroupHandler(customerRoutes, {
  listCustomers: async ({ ctx, query }) => (await use.list()).listCustomers(ctx, query),
  createCustomer: async ({ ctx, body }) => (await use.create()).createCustomer(ctx, body),
  getCustomer: async ({ ctx, params }) => (await use.detail()).getCustomerDetail(ctx, params.id),
  updateCustomer: async ({ ctx, params, body }) => (await use.update()).updateCustomer(ctx, params.id, body),
  deleteCustomer: async ({ ctx, params }) => (await use.remove()).deleteCustomer(ctx, params.id),
});

import { createCustomer } from '@helpdesk/core/customers/create';
import { deleteCustomer } from '@helpdesk/core/customers/delete';
import { getCustomerDetail } from '@helpdesk/core/customers/detail';
import { listCustomers } from '@helpdesk/core/customers/list';
import { customerRoutes } from '@helpdesk/core/customers/routes';
import { updateCustomer } from '@helpdesk/core/customers/update';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';

export const handler = createGroupHandler(customerRoutes, {
  listCustomers: async ({ ctx, query }) => listCustomers(ctx, query),
  createCustomer: async ({ ctx, body }) => createCustomer(ctx, body),
  getCustomer: async ({ ctx, params }) => getCustomerDetail(ctx, params.id),
  updateCustomer: async ({ ctx, params, body }) => updateCustomer(ctx, params.id, body),
  deleteCustomer: async ({ ctx, params }) => deleteCustomer(ctx, params.id),
});

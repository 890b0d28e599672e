import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { uuid } from '../../kernel/api/schemas.js';
import { customerDirectoryRoutes } from '../customers/routes.js';
import { customerSchema } from '../customers/schemas.js';
import { customerFeedbackSchema, customerTicketSchema } from './schemas.js';

/** The customer's profile: the record with its tickets and feedback, and its removal with them. */
const base = { group: 'customers' as const, tenancy: 'project' as const, tags: ['Customers'] };
const idParams = { id: uuid };

const customerProfileRoutes = {
  getCustomer: defineRoute({
    ...base,
    id: 'getCustomer',
    method: 'GET',
    path: '/customers/{id}',
    summary: 'Get a customer with their latest tickets and feedback',
    scope: 'customers:read',
    params: idParams,
    response: v.object({
      ...customerSchema.entries,
      tickets: v.array(customerTicketSchema),
      feedback: v.array(customerFeedbackSchema),
    }),
  }),
  deleteCustomer: defineRoute({
    ...base,
    id: 'deleteCustomer',
    method: 'DELETE',
    path: '/customers/{id}',
    summary: 'Delete a customer; their tickets are untouched',
    scope: 'customers:write',
    params: idParams,
    response: v.object({ id: uuid, deleted: v.literal(true) }),
  }),
} satisfies Record<string, RouteDef>;

const { listCustomers, createCustomer, updateCustomer } = customerDirectoryRoutes;
const { getCustomer, deleteCustomer } = customerProfileRoutes;
/** The customers resource, directory and profile, in its documented order. */
export const customerRoutes = {
  listCustomers,
  createCustomer,
  getCustomer,
  updateCustomer,
  deleteCustomer,
} satisfies Record<string, RouteDef>;

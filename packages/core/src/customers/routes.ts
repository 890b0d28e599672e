import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.js';
import { pageMeta, pageQuery, uuid } from '../http/schemas.js';
import { createCustomerBody, customerFeedbackSchema, customerSchema, customerTicketSchema, updateCustomerBody } from './schemas.js';

const base = { group: 'customers' as const, tenancy: 'project' as const, tags: ['Customers'] };
const idParams = { id: uuid };

export const customerRoutes = {
  listCustomers: defineRoute({
    ...base,
    id: 'listCustomers',
    method: 'GET',
    path: '/customers',
    summary: 'List customers (search by email, name or externalId)',
    scope: 'customers:read',
    query: {
      ...pageQuery(),
      search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
      externalId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255))),
    },
    response: v.object({ customers: v.array(customerSchema), ...pageMeta }),
  }),
  createCustomer: defineRoute({
    ...base,
    id: 'createCustomer',
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer; email and externalId are unique per project and environment',
    scope: 'customers:write',
    body: createCustomerBody,
    response: customerSchema,
    problems: ['customer.email_taken', 'customer.external_id_taken'],
  }),
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
  updateCustomer: defineRoute({
    ...base,
    id: 'updateCustomer',
    method: 'PATCH',
    path: '/customers/{id}',
    summary: 'Update a customer; email is immutable',
    scope: 'customers:write',
    params: idParams,
    body: updateCustomerBody,
    response: customerSchema,
    problems: ['customer.email_immutable', 'customer.external_id_taken'],
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

import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { maxChars, pageMeta, pageQuery, uuid } from '../../kernel/api/schemas.js';
import { createCustomerBody, customerSchema, updateCustomerBody } from './schemas.js';

const base = { group: 'customers' as const, tenancy: 'project' as const, tags: ['Customers'] };
const idParams = { id: uuid };

/** The directory's routes: list, create and update records (the profile adds read and delete). */
export const customerDirectoryRoutes = {
  listCustomers: defineRoute({
    ...base,
    id: 'listCustomers',
    method: 'GET',
    path: '/customers',
    summary: 'List customers (search by email, name or externalId)',
    scope: 'customers:read',
    query: {
      ...pageQuery(),
      search: v.optional(v.pipe(v.string(), v.trim(), maxChars(200))),
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
} satisfies Record<string, RouteDef>;

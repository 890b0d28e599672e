import { Entity, Service } from 'electrodb';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';

/**
 * The customer's partition holds its record and small copies of its tickets and feedback, newest last.
 * Clustered, so the copies of both kinds interleave by createdAt (their first sort-key composite) and
 * the record sorts after all of them: read descending, the record comes first, then the latest history.
 */
export const HISTORY = 'customerHistory';

export const Customer = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'customer', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          customerId: { type: 'string', required: true, readOnly: true },
          /** Lower-cased; immutable, so the uniqueness item written with it never moves. */
          email: { type: 'string', required: true, readOnly: true },
          name: { type: 'string' },
          externalId: { type: 'string' },
          phone: { type: 'string' },
          metadata: { type: 'any' },
          ticketCount: { type: 'number', required: true, default: 0 },
          createdAt: { type: 'string', required: true, readOnly: true, default: () => new Date().toISOString() },
          // Set by profile changes only: a ticket counter moving is not a profile update.
          updatedAt: { type: 'string', required: true, default: () => new Date().toISOString() },
        },
        indexes: {
          byId: {
            // With its ticket and feedback copies: the detail is one Query (see history.ts).
            collection: HISTORY,
            type: 'clustered',
            pk: { field: 'pk', composite: ['projectId', 'env', 'customerId'] },
            sk: { field: 'sk', composite: [] },
          },
          byCreated: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env'] },
            sk: { field: 'gsi1sk', composite: ['createdAt', 'customerId'] },
          },
        },
      },
      entityConfig(),
    ),
);

export const UNIQUE_KINDS = ['email', 'externalId'] as const;
export type UniqueKind = (typeof UNIQUE_KINDS)[number];

/**
 * One item per unique customer value (email, externalId) in a project and environment, written in the
 * same transaction as the customer with a not-exists condition: DynamoDB has no unique indexes.
 */
export const CustomerKey = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'customerKey', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          kind: { type: UNIQUE_KINDS, required: true, readOnly: true },
          value: { type: 'string', required: true, readOnly: true },
          customerId: { type: 'string', required: true, readOnly: true },
          /** On the email item, the customer's name, kept in step by updates: one read matches a customer. */
          name: { type: 'string' },
        },
        indexes: {
          byValue: {
            // externalIds are the caller's and case-sensitive: keep the key's casing.
            pk: { field: 'pk', composite: ['projectId', 'env', 'kind', 'value'], casing: 'none' },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

export const customerService = lazy(
  () => new Service({ customer: Customer, customerKey: CustomerKey }, entityConfig()),
);

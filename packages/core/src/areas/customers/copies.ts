import { type Attribute, Entity } from 'electrodb';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { HISTORY } from './entities.js';

/**
 * A small copy of an area's record under its customer's partition, in the customer's history
 * collection, newest first: the customer's detail reads the copies with the record in one Query, and
 * the area keeps each copy in step with its record in the same transaction (tickets, feedback).
 * `id` names the record's id attribute, which orders copies made in the same millisecond.
 */
export const customerCopy = <
  const Name extends string,
  const Id extends string,
  const Attributes extends Record<Id, Attribute> & Record<string, Attribute>,
>(
  entity: Name,
  id: Id,
  attributes: Attributes,
) =>
  new Entity(
    {
      model: { entity, version: '1', service: SERVICE },
      attributes: {
        ...tenantAttributes,
        customerId: { type: 'string', required: true, readOnly: true },
        ...attributes,
        createdAt: { type: 'string', required: true, readOnly: true },
      },
      indexes: {
        byCustomer: {
          collection: HISTORY,
          type: 'clustered',
          pk: { field: 'pk', composite: ['projectId', 'env', 'customerId'] },
          sk: { field: 'sk', composite: ['createdAt', id] },
        },
      },
    },
    entityConfig(),
  );

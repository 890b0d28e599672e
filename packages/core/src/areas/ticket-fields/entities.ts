import { Entity } from 'electrodb';
import { explicitTimestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { FIELD_TYPES } from './values.js';

const { createdAt, updatedAt } = explicitTimestamps;

/**
 * A ticket field's definition. All of a project's definitions are one Query (they are few); `valueCount`
 * is kept by every ticket write that gives or takes a value, in its transaction, so a type change can be
 * refused while values exist and a deleted field's key is freed once its values are gone.
 */
export const TicketField = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketField', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          key: { type: 'string', required: true, readOnly: true },
          label: { type: 'string', required: true },
          type: { type: FIELD_TYPES, required: true },
          options: { type: 'list', items: { type: 'string' } },
          required: { type: 'boolean', required: true, default: false },
          filterable: { type: 'boolean', required: true, default: false },
          position: { type: 'number', required: true, default: 0 },
          valueCount: { type: 'number', required: true, default: 0 },
          /** Set by DELETE: hidden from the API and tickets at once, removed with its values in the background. */
          deletedAt: { type: 'string' },
          createdAt,
          updatedAt,
        },
        indexes: {
          byKey: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['key'] },
          },
        },
      },
      entityConfig(),
    ),
);

import { Entity, Service } from 'electrodb';
import { explicitTimestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';

const { createdAt, updatedAt } = explicitTimestamps;
/** Calendars and policies share the project's `sla` partition: a ticket write that needs them reads both in one Query. */
const inSetup = <const Id extends string>(id: Id) =>
  ({
    collection: 'slaSetup',
    pk: { field: 'pk', composite: ['projectId', 'env'] },
    sk: { field: 'sk', composite: [id] },
  }) as const;

/** Business hours: an IANA zone, weekly intervals and holidays (business-time.ts reads them). */
export const BusinessCalendar = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'businessCalendar', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          calendarId: { type: 'string', required: true, readOnly: true },
          name: { type: 'string', required: true },
          timeZone: { type: 'string', required: true },
          hours: { type: 'any', required: true },
          holidays: { type: 'any', required: true },
          createdAt,
          updatedAt,
        },
        indexes: { byId: inSetup('calendarId') },
      },
      entityConfig(),
    ),
);

/** An SLA policy: the first by position whose conditions match a ticket applies to it. */
export const SlaPolicy = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'slaPolicy', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          policyId: { type: 'string', required: true, readOnly: true },
          name: { type: 'string', required: true },
          position: { type: 'number', required: true },
          conditions: { type: 'any', required: true },
          targets: { type: 'any', required: true },
          calendarId: { type: 'string' },
          pauseOnPending: { type: 'boolean', required: true },
          stopOnResolved: { type: 'boolean', required: true },
          atRisk: { type: 'number', required: true },
          createdAt,
          updatedAt,
        },
        indexes: { byId: inSetup('policyId') },
      },
      entityConfig(),
    ),
);

export const slaService = lazy(() => new Service({ calendar: BusinessCalendar, policy: SlaPolicy }, entityConfig()));

import { Entity, Service } from 'electrodb';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { ISSUE_STATUSES, LOG_LEVELS } from './values.js';

/**
 * A raw log event. Newest-first listing and date ranges are key conditions on `timestamp` in the
 * project's partition; the fingerprint filter and an issue's latest events read the issue's partition
 * on gsi1, shared with the issue itself so one Query returns both.
 */
export const LogEvent = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logEvent', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          eventId: { type: 'string', required: true, readOnly: true },
          /** ISO date-time, normalised to UTC so that keys sort in time order. */
          timestamp: { type: 'string', required: true, readOnly: true },
          level: { type: LOG_LEVELS, required: true },
          message: { type: 'string', required: true },
          scope: { type: 'string' },
          stack: { type: 'string' },
          /** JSON text: a caller's object may nest deeper than a DynamoDB map allows. */
          context: { type: 'string' },
          release: { type: 'string' },
          environment: { type: 'string' },
          fingerprint: { type: 'string', required: true },
          issueId: { type: 'string', required: true, readOnly: true },
          receivedAt: { type: 'string', required: true },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byTime: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['timestamp', 'eventId'] },
          },
          byIssue: {
            index: 'gsi1',
            collection: 'issueEvents',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env', 'issueId'] },
            sk: { field: 'gsi1sk', composite: ['timestamp', 'eventId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** One issue per fingerprint per project and environment, written only by the grouping consumer and PATCH. */
export const LogIssue = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logIssue', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          issueId: { type: 'string', required: true, readOnly: true },
          fingerprint: { type: 'string', required: true, readOnly: true },
          title: { type: 'string', required: true },
          level: { type: LOG_LEVELS, required: true },
          scope: { type: 'string' },
          status: { type: ISSUE_STATUSES, required: true, default: 'open' },
          regressed: { type: 'boolean', required: true, default: false },
          count: { type: 'number', required: true },
          firstSeenAt: { type: 'string', required: true },
          lastSeenAt: { type: 'string', required: true },
          lastEventId: { type: 'string', required: true },
          /** Bumped by every write: the consumer's read-modify-write is conditional on it. */
          version: { type: 'number', required: true, default: 1 },
          /** The grouping rules that made the issue (absent on issues made before versions were kept: 1). */
          grouping: { type: 'number' },
          /** Set once the issue went into another one (merges are final): its events count there. */
          mergedInto: { type: 'string' },
          /** Issues merged into this one, newest first, at most MERGED_KEPT: their events are this issue's too. */
          mergedFrom: { type: 'list', items: { type: 'string' } },
          firstRelease: { type: 'string' },
          lastRelease: { type: 'string' },
          /** As asked: `next` or a release name. */
          resolvedIn: { type: 'string' },
          /** Events of releases up to this sequence number (releases.ts) keep a resolved issue resolved. */
          resolvedUpTo: { type: 'number' },
          regressedIn: { type: 'string' },
          /** Alerts stay quiet for the issue until then (ISO). */
          snoozedUntil: { type: 'string' },
        },
        indexes: {
          byId: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'issueId'] },
            sk: { field: 'sk', composite: [] },
          },
          withEvents: {
            index: 'gsi1',
            collection: 'issueEvents',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env', 'issueId'] },
            sk: { field: 'gsi1sk', composite: [] },
          },
          bySeen: {
            index: 'gsi2',
            pk: { field: 'gsi2pk', composite: ['projectId', 'env'] },
            sk: { field: 'gsi2sk', composite: ['lastSeenAt', 'issueId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * A release as first seen by the project and environment: `seq` orders releases by that first sight
 * (the order deploys happen in), so "a later release" is one first seen later.
 */
export const LogRelease = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logRelease', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          release: { type: 'string', required: true, readOnly: true },
          seq: { type: 'number', required: true, readOnly: true },
          /** When the project first saw it (releases registered before this was kept have none). */
          firstSeenAt: { type: 'string' },
        },
        indexes: {
          byName: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'release'] },
            sk: { field: 'sk', composite: [] },
          },
          /** The project's releases in their order: the issue charts mark the recent ones. */
          inOrder: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env'] },
            sk: { field: 'gsi1sk', composite: ['seq'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** The project's release counter: the last `seq` given. */
export const LogReleaseCounter = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logReleaseCounter', version: '1', service: SERVICE },
        attributes: { ...tenantAttributes, lastSeq: { type: 'number' } },
        indexes: {
          byProject: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/** `processed#<eventId>`: the grouping consumer counts an event only by creating its marker. */
export const LogMarker = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logMarker', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          eventId: { type: 'string', required: true, readOnly: true },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          processed: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'eventId'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * The learned message templates of one project and environment (templates.ts), as one JSON item of at
 * most TEMPLATE_STATE_BYTES; `version` makes every change a conditional write.
 */
export const LogTemplates = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'logTemplates', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          state: { type: 'string', required: true },
          version: { type: 'number', required: true },
        },
        indexes: {
          byProject: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

export const logService = lazy(
  () => new Service({ logEvent: LogEvent, logIssue: LogIssue, logMarker: LogMarker }, entityConfig()),
);

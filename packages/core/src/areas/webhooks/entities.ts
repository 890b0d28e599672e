import { Entity } from 'electrodb';
import { timestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';

export const WEBHOOK_FORMATS = ['json', 'chat'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** A registered endpoint. Fan-out reads every endpoint of a project and environment in one Query. */
export const WebhookEndpoint = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'webhookEndpoint', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          webhookId: { type: 'string', required: true, readOnly: true },
          url: { type: 'string', required: true },
          /** Absent: every event, including ones added later. */
          events: { type: 'list', items: { type: 'string' } },
          format: { type: WEBHOOK_FORMATS, required: true, default: 'json' },
          /** At most this many deliveries a second; those above wait (deliver.ts). Absent: no limit. */
          rateLimitPerSecond: { type: 'number' },
          description: { type: 'string' },
          enabled: { type: 'boolean', required: true, default: true },
          /** The signing secret, AES-256-GCM sealed (see secret.ts): HMAC signing needs the secret itself. */
          sealedSecret: { type: 'string', required: true },
          /** Secrets replaced by a rotation, still signing until their `until` (the overlap), sealed like the current one. */
          previousSecrets: {
            type: 'list',
            items: {
              type: 'map',
              properties: { sealed: { type: 'string', required: true }, until: { type: 'string', required: true } },
            },
          },
          /** First failed attempt since the last success; drives the 3-day disable rule. */
          failingSince: { type: 'string' },
          disabledReason: { type: 'string' },
          ...timestamps,
        },
        indexes: {
          byProject: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['webhookId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * One row per delivery attempt. The primary key (delivery id, attempt) makes recording an attempt a
 * claim, so a job SQS hands out twice schedules its retry once; gsi1 lists an endpoint's log newest first.
 */
export const WebhookDelivery = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'webhookDelivery', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          webhookId: { type: 'string', required: true, readOnly: true },
          deliveryId: { type: 'string', required: true, readOnly: true },
          attempt: { type: 'number', required: true, readOnly: true },
          event: { type: 'string', required: true },
          statusCode: { type: 'number' },
          durationMs: { type: 'number', required: true },
          error: { type: 'string' },
          createdAt: { type: 'string', required: true },
          nextRetryAt: { type: 'string' },
          /** Fingerprints of the secrets that signed the attempt (two during a rotation's overlap). */
          signedWith: { type: 'list', items: { type: 'string' } },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byAttempt: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'webhookId', 'deliveryId'] },
            sk: { field: 'sk', composite: ['attempt'] },
          },
          byTime: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env', 'webhookId'] },
            sk: { field: 'gsi1sk', composite: ['createdAt', 'deliveryId', 'attempt'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** A delivery that failed its last attempt: kept with its payload for inspection and replay. */
export const WebhookDeadLetter = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'webhookDeadLetter', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          webhookId: { type: 'string', required: true, readOnly: true },
          deliveryId: { type: 'string', required: true, readOnly: true },
          event: { type: 'string', required: true },
          timestamp: { type: 'string', required: true },
          /** The event data as JSON. */
          data: { type: 'string', required: true },
          attempts: { type: 'number', required: true },
          lastError: { type: 'string', required: true },
          createdAt: { type: 'string', required: true, default: () => new Date().toISOString() },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byEndpoint: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'webhookId'] },
            sk: { field: 'sk', composite: ['deliveryId'] },
          },
        },
      },
      entityConfig(),
    ),
);

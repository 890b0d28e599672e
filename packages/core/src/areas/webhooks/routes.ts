import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { integer, isoDateTime, pageMeta, pageQuery, patchBody, uuid } from '../../kernel/api/schemas.js';
import {
  description,
  eventName,
  events,
  format,
  rateLimitPerSecond,
  url,
  webhook,
  webhookWithSecret,
} from './schemas.js';

const idParams = { id: uuid };

const base = {
  group: 'webhooks' as const,
  tags: ['Webhooks'],
  tenancy: 'project' as const,
  scope: 'webhooks:manage' as const,
};

export const webhookRoutes = {
  listWebhooks: defineRoute({
    ...base,
    id: 'listWebhooks',
    method: 'GET',
    path: '/webhooks',
    summary: 'List webhook endpoints',
    response: v.object({ webhooks: v.array(webhook) }),
  }),
  createWebhook: defineRoute({
    ...base,
    id: 'createWebhook',
    method: 'POST',
    path: '/webhooks',
    summary: 'Register an endpoint; the signing secret is returned once, in this response',
    body: v.strictObject({
      url,
      events: v.optional(events),
      format: v.optional(format),
      description: v.optional(description),
      rateLimitPerSecond: v.optional(rateLimitPerSecond),
    }),
    response: webhookWithSecret,
    problems: ['webhook.url_not_allowed'],
  }),
  updateWebhook: defineRoute({
    ...base,
    id: 'updateWebhook',
    method: 'PATCH',
    path: '/webhooks/{id}',
    summary: 'Change the events, format, description, rate limit or enabled state of an endpoint',
    params: idParams,
    body: patchBody(
      {
        events: v.optional(events),
        format: v.optional(format),
        description: v.optional(v.nullable(description)),
        rateLimitPerSecond: v.optional(v.nullable(rateLimitPerSecond)),
        enabled: v.optional(v.boolean()),
      },
      'Send at least one field to update',
    ),
    response: webhook,
    problems: ['webhook.url_not_allowed'],
  }),
  deleteWebhook: defineRoute({
    ...base,
    id: 'deleteWebhook',
    method: 'DELETE',
    path: '/webhooks/{id}',
    summary: 'Delete an endpoint; its pending retries are dropped',
    params: idParams,
    response: v.object({ deleted: v.literal(true), id: uuid }),
  }),
  listWebhookDeliveries: defineRoute({
    ...base,
    id: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    summary: "An endpoint's delivery log: one row per attempt, newest first, kept 30 days",
    params: idParams,
    query: pageQuery(),
    response: v.object({
      deliveries: v.array(
        v.object({
          id: uuid,
          event: eventName,
          attempt: integer,
          statusCode: v.nullable(integer),
          durationMs: integer,
          error: v.nullable(v.string()),
          createdAt: isoDateTime,
          nextRetryAt: v.nullable(isoDateTime),
          signedWith: v.pipe(v.array(v.string()), v.description('Fingerprints of the secrets that signed the attempt')),
        }),
      ),
      ...pageMeta,
    }),
  }),
  testWebhook: defineRoute({
    ...base,
    id: 'testWebhook',
    method: 'POST',
    path: '/webhooks/{id}/test',
    summary: "Queue a sample delivery (default event: the endpoint's first); the result appears in the delivery log",
    params: idParams,
    body: v.strictObject({ event: v.optional(eventName) }),
    response: v.object({ queued: v.literal(true), deliveryId: uuid, event: eventName }),
  }),
  rotateWebhookSecret: defineRoute({
    ...base,
    id: 'rotateWebhookSecret',
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    summary:
      'Replace the signing secret (returned once); the old one keeps signing beside it for `overlapHours` (default 24, 0 stops it at once)',
    params: idParams,
    body: v.strictObject({
      overlapHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(168))),
    }),
    response: webhookWithSecret,
    problems: ['conflict'],
  }),
  recoverWebhookDeliveries: defineRoute({
    ...base,
    id: 'recoverWebhookDeliveries',
    method: 'POST',
    path: '/webhooks/{id}/recover',
    summary:
      'Queue again every delivery of the endpoint that failed for good (dead-lettered) in [since, until], with its original webhook-id and payload',
    params: idParams,
    body: v.pipe(
      v.strictObject({ since: isoDateTime, until: v.optional(isoDateTime) }),
      // A reversed window is refused as on every list that takes a range, not answered with nothing found.
      v.forward(
        v.check((w) => w.until === undefined || Date.parse(w.since) <= Date.parse(w.until), 'Must not be after until'),
        ['since'],
      ),
    ),
    response: v.object({ queued: integer, since: isoDateTime, until: v.nullable(isoDateTime) }),
    problems: ['webhook.disabled'],
  }),
  retryWebhookDelivery: defineRoute({
    ...base,
    id: 'retryWebhookDelivery',
    method: 'POST',
    path: '/webhooks/{id}/deliveries/{deliveryId}/retry',
    summary: 'Queue one delivery that failed for good again, with its original webhook-id and payload',
    params: { id: uuid, deliveryId: uuid },
    response: v.object({ queued: v.literal(true), deliveryId: uuid, attempt: integer }),
    problems: ['webhook.disabled'],
  }),
} satisfies Record<string, RouteDef>;

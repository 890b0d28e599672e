import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { integer, isoDateTime, pageMeta, pageQuery, uuid } from '../../kernel/api/schemas.js';
import { description, eventName, events, format, url, webhook, webhookWithSecret } from './schemas.js';

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
    }),
    response: webhookWithSecret,
    problems: ['webhook.url_not_allowed'],
  }),
  updateWebhook: defineRoute({
    ...base,
    id: 'updateWebhook',
    method: 'PATCH',
    path: '/webhooks/{id}',
    summary: 'Change the events, format, description or enabled state of an endpoint',
    params: idParams,
    body: v.strictObject({
      events: v.optional(events),
      format: v.optional(format),
      description: v.optional(v.nullable(description)),
      enabled: v.optional(v.boolean()),
    }),
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
    summary: 'Replace the signing secret; the new one is returned once and the old one stops at once',
    params: idParams,
    response: webhookWithSecret,
  }),
} satisfies Record<string, RouteDef>;

import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.js';
import { integer, isoDateTime, pageMeta, pageQuery, uuid } from '../http/schemas.js';
import { EVENT_NAMES } from './events.js';

const eventName = v.picklist(EVENT_NAMES);
const events = v.pipe(v.array(eventName), v.minLength(1, 'Choose at least one event, or leave events out for all.'));
const format = v.picklist(['json', 'chat']);
const description = v.pipe(v.string(), v.maxLength(500));
const url = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url(),
  v.check((s) => /^https?:\/\//i.test(s), 'The URL must use http or https.'),
  v.check((s) => {
    const u = URL.canParse(s) ? new URL(s) : undefined;
    return !u?.username && !u?.password;
  }, 'The URL must not carry credentials.'),
);

const webhook = v.object({
  id: uuid,
  url: v.string(),
  events: v.array(eventName),
  format,
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  createdAt: isoDateTime,
});
const webhookWithSecret = v.object({ ...webhook.entries, secret: v.string() });
const idParams = { id: uuid };

const base = { group: 'webhooks' as const, tags: ['Webhooks'], tenancy: 'project' as const, scope: 'webhooks:manage' as const };

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
    body: v.strictObject({ url, events: v.optional(events), format: v.optional(format), description: v.optional(description) }),
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
    summary: 'Queue a sample delivery (default event: the endpoint\'s first); the result appears in the delivery log',
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

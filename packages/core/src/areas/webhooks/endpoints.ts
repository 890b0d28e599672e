import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { commit } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { DeliveryJob } from './deliver.js';
import { WebhookEndpoint, type WebhookFormat } from './entities.js';
import { SAMPLE_DATA } from './payload.js';
import { webhooksQueue } from './queue.js';
import { newWebhookSecret, sealSecret } from './secret.js';
import { EVENT_NAMES, type EventName } from './values.js';

// Loaded by the routes that register a URL: the address check (ipaddr.js) is not needed by the rest.
const checkWebhookTarget = async (url: string) => (await import('./target.js')).checkWebhookTarget(url);

/** The stored list holds only names from EVENT_NAMES: the route schema admits no others. */
export const endpointEvents = (e: { events?: string[] }) => e.events as EventName[] | undefined;

type EndpointItem = EntityItem<typeof WebhookEndpoint>;

export const toApiWebhook = (e: EndpointItem) => ({
  id: e.webhookId,
  url: e.url,
  events: endpointEvents(e) ?? [...EVENT_NAMES],
  format: e.format,
  description: e.description ?? null,
  enabled: e.enabled,
  createdAt: e.createdAt,
});

const keyOf = (ctx: TenantContext, webhookId: string) => ({ projectId: ctx.projectId, env: ctx.env, webhookId });

/** Choosing every event stores nothing, so the endpoint also receives events added later. */
const storedEvents = (events: EventName[] | undefined) =>
  events === undefined || EVENT_NAMES.every((name) => events.includes(name)) ? undefined : [...new Set(events)];

export async function getWebhook(ctx: TenantContext, webhookId: string) {
  const { data } = await WebhookEndpoint.get(keyOf(ctx, webhookId)).go();
  if (!data) throw errors.notFound('Webhook');
  return data;
}

/** A patch of an endpoint deleted since it was read is a 404, like any missing endpoint. */
const notFoundIfGone = (err: unknown): never => {
  throw isConditionFailure(err) ? errors.notFound('Webhook') : err;
};

export async function listWebhooks(ctx: TenantContext) {
  const { data } = await WebhookEndpoint.query
    .byProject({ projectId: ctx.projectId, env: ctx.env })
    .go({ pages: 'all' });
  return data.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(toApiWebhook);
}

export async function createWebhook(
  ctx: TenantContext,
  input: { url: string; events?: EventName[]; format?: WebhookFormat; description?: string },
) {
  const refused = await checkWebhookTarget(input.url);
  if (refused) throw problem('webhook.url_not_allowed', { url: input.url, refused });
  const webhookId = randomUUID();
  const secret = newWebhookSecret();
  const { data } = await WebhookEndpoint.create({
    ...keyOf(ctx, webhookId),
    url: input.url,
    events: storedEvents(input.events),
    format: input.format ?? 'json',
    description: input.description,
    sealedSecret: sealSecret(secret, webhookId),
  }).go();
  return { ...toApiWebhook(data), secret };
}

export async function updateWebhook(
  ctx: TenantContext,
  webhookId: string,
  input: { events?: EventName[]; format?: WebhookFormat; description?: string | null; enabled?: boolean },
) {
  const current = await getWebhook(ctx, webhookId);
  const events = input.events === undefined ? undefined : storedEvents(input.events);
  let patch = WebhookEndpoint.patch(keyOf(ctx, webhookId)).set({
    ...(input.format !== undefined ? { format: input.format } : {}),
    ...(typeof input.description === 'string' ? { description: input.description } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...(events ? { events } : {}),
  });
  const remove: ('events' | 'description' | 'failingSince' | 'disabledReason')[] = [];
  if (input.events !== undefined && !events) remove.push('events');
  if (input.description === null) remove.push('description');
  // Re-enabling starts a fresh failure window; the last reason is history.
  if (input.enabled === true && !current.enabled) remove.push('failingSince', 'disabledReason');
  if (remove.length) patch = patch.remove(remove);
  const { data } = await patch.go({ response: 'all_new' }).catch(notFoundIfGone);
  return toApiWebhook(data as EndpointItem);
}

export async function deleteWebhook(ctx: TenantContext, webhookId: string) {
  const { data } = await WebhookEndpoint.delete(keyOf(ctx, webhookId)).go({ response: 'all_old' });
  if (!data) throw errors.notFound('Webhook');
  return { deleted: true as const, id: webhookId };
}

/** The old secret stops working at once: receivers must switch to the new one together with this call. */
export async function rotateWebhookSecret(ctx: TenantContext, webhookId: string) {
  await getWebhook(ctx, webhookId);
  const secret = newWebhookSecret();
  const { data } = await WebhookEndpoint.patch(keyOf(ctx, webhookId))
    .set({ sealedSecret: sealSecret(secret, webhookId) })
    .go({ response: 'all_new' })
    .catch(notFoundIfGone);
  return { ...toApiWebhook(data as EndpointItem), secret };
}

/**
 * The dashboard's test action: one sample delivery of `event` (default: the endpoint's first event),
 * queued like any other so the caller never waits on the receiver. Logged, not retried.
 */
export async function sendTestDelivery(ctx: TenantContext, webhookId: string, event?: EventName) {
  const endpoint = await getWebhook(ctx, webhookId);
  const name = event ?? endpointEvents(endpoint)?.[0] ?? EVENT_NAMES[0];
  const job: DeliveryJob = {
    kind: 'delivery',
    deliveryId: randomUUID(),
    webhookId,
    accountId: ctx.accountId,
    projectId: ctx.projectId,
    env: ctx.env,
    event: name,
    timestamp: new Date().toISOString(),
    data: SAMPLE_DATA[name],
    attempt: 1,
    test: true,
  };
  await commit({
    items: () => ({ job: outboxItem(webhooksQueue, job, { id: `job-${job.deliveryId}-1` }) }),
    exhausted: () => errors.conflict('The webhook test'),
  });
  return { queued: true as const, deliveryId: job.deliveryId, event: name };
}

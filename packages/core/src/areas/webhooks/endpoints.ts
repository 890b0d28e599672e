import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { commit } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { EVENT_NAMES, type EventName, matchesFilter } from './catalog.js';
import type { DeliveryJob } from './deliver.js';
import { WebhookEndpoint, type WebhookFormat } from './entities.js';
import { sampleData } from './payload.js';
import { webhooksQueue } from './queue.js';
import type { EventFilter } from './schemas.js';
import { newWebhookSecret, openSecret, sealSecret } from './secret.js';
import { secretFingerprint } from './verify.js';

// Loaded by the routes that register a URL: the address check (ipaddr.js) is not needed by the rest.
const checkWebhookTarget = async (url: string) => (await import('./target.js')).checkWebhookTarget(url);

/** The stored list holds only catalog names and prefixes (`email.*`): the route schema admits no others. */
export const endpointEvents = (e: { events?: string[] }) => e.events as EventFilter[] | undefined;

type EndpointItem = EntityItem<typeof WebhookEndpoint>;

export const toApiWebhook = (e: EndpointItem, now = Date.now()) => ({
  id: e.webhookId,
  url: e.url,
  events: endpointEvents(e) ?? [...EVENT_NAMES],
  format: e.format,
  description: e.description ?? null,
  rateLimitPerSecond: e.rateLimitPerSecond ?? null,
  enabled: e.enabled,
  // Which secrets sign now (fingerprints, never the secrets): the current one and those still in their overlap.
  secretFingerprint: secretFingerprint(openSecret(e.sealedSecret, e.webhookId)),
  previousSecrets: (e.previousSecrets ?? [])
    .filter((p) => Date.parse(p.until) > now)
    .map((p) => ({ fingerprint: secretFingerprint(openSecret(p.sealed, e.webhookId)), validUntil: p.until })),
  failingSince: e.failingSince ?? null,
  disabledReason: e.disabledReason ?? null,
  createdAt: e.createdAt,
});

const keyOf = (ctx: TenantContext, webhookId: string) => ({ projectId: ctx.projectId, env: ctx.env, webhookId });

/** Choosing every event stores nothing, so the endpoint also receives events added later. */
const storedEvents = (events: EventFilter[] | undefined) =>
  events === undefined || EVENT_NAMES.every((name) => matchesFilter(events, name)) ? undefined : [...new Set(events)];

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
  input: {
    url: string;
    events?: EventFilter[];
    format?: WebhookFormat;
    description?: string;
    rateLimitPerSecond?: number;
  },
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
    rateLimitPerSecond: input.rateLimitPerSecond,
    sealedSecret: sealSecret(secret, webhookId),
  }).go();
  return { ...toApiWebhook(data), secret };
}

export async function updateWebhook(
  ctx: TenantContext,
  webhookId: string,
  input: {
    events?: EventFilter[];
    format?: WebhookFormat;
    description?: string | null;
    rateLimitPerSecond?: number | null;
    enabled?: boolean;
  },
) {
  const current = await getWebhook(ctx, webhookId);
  const events = input.events === undefined ? undefined : storedEvents(input.events);
  let patch = WebhookEndpoint.patch(keyOf(ctx, webhookId)).set({
    ...(input.format !== undefined ? { format: input.format } : {}),
    ...(typeof input.description === 'string' ? { description: input.description } : {}),
    ...(typeof input.rateLimitPerSecond === 'number' ? { rateLimitPerSecond: input.rateLimitPerSecond } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...(events ? { events } : {}),
  });
  const remove: ('events' | 'description' | 'rateLimitPerSecond' | 'failingSince' | 'disabledReason')[] = [];
  if (input.events !== undefined && !events) remove.push('events');
  if (input.description === null) remove.push('description');
  if (input.rateLimitPerSecond === null) remove.push('rateLimitPerSecond');
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

/** A rotation keeps the replaced secret signing for this long unless told otherwise. */
export const DEFAULT_OVERLAP_HOURS = 24;

/**
 * A new signing secret, returned once. The replaced one keeps signing beside it for `overlapHours`
 * (default 24, up to 168; 0 cuts it at once, after a leak), so receivers can switch without a missed
 * delivery; secrets whose overlap has ended are dropped. Conditional on the secret read, so two
 * concurrent rotations cannot both keep the same old secret.
 */
export async function rotateWebhookSecret(ctx: TenantContext, webhookId: string, overlapHours = DEFAULT_OVERLAP_HOURS) {
  const current = await getWebhook(ctx, webhookId);
  const secret = newWebhookSecret();
  const now = Date.now();
  const previousSecrets = [
    ...(overlapHours > 0
      ? [{ sealed: current.sealedSecret, until: new Date(now + overlapHours * 3_600_000).toISOString() }]
      : []),
    ...(current.previousSecrets ?? []).filter((p) => Date.parse(p.until) > now && overlapHours > 0),
  ];
  const { data } = await WebhookEndpoint.patch(keyOf(ctx, webhookId))
    .set({ sealedSecret: sealSecret(secret, webhookId), previousSecrets })
    .where((a, op) => op.eq(a.sealedSecret, current.sealedSecret))
    .go({ response: 'all_new' })
    .catch((err: unknown) => {
      throw isConditionFailure(err) ? errors.conflict('The webhook secret') : err;
    });
  return { ...toApiWebhook(data as EndpointItem), secret };
}

/**
 * The dashboard's test action: one sample delivery of `event` (default: the endpoint's first event),
 * queued like any other so the caller never waits on the receiver. Logged, not retried.
 */
export async function sendTestDelivery(ctx: TenantContext, webhookId: string, event?: EventName) {
  const endpoint = await getWebhook(ctx, webhookId);
  // Default: the first catalog type the endpoint's filter takes (a filter may be a prefix such as `email.*`).
  const name = event ?? EVENT_NAMES.find((n) => matchesFilter(endpointEvents(endpoint), n)) ?? EVENT_NAMES[0];
  const job: DeliveryJob = {
    kind: 'delivery',
    deliveryId: randomUUID(),
    webhookId,
    accountId: ctx.accountId,
    projectId: ctx.projectId,
    env: ctx.env,
    event: name,
    timestamp: new Date().toISOString(),
    data: sampleData(name),
    attempt: 1,
    test: true,
  };
  await commit({
    items: () => ({ job: outboxItem(webhooksQueue, job, { id: `job-${job.deliveryId}-1` }) }),
    exhausted: () => errors.conflict('The webhook test'),
  });
  return { queued: true as const, deliveryId: job.deliveryId, event: name };
}

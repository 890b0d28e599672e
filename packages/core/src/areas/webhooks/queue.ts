import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { ENVIRONMENTS } from '../../kernel/tenant.js';
import { EVENT_NAMES } from './catalog.js';

const environment = v.picklist(ENVIRONMENTS);
const data = v.record(v.string(), v.unknown());

/** webhooks: a domain event to fan out (`EventEnvelope`) or one attempt at one endpoint (`DeliveryJob`). */
const webhookEvent = v.object({
  id: v.string(),
  event: v.picklist(EVENT_NAMES),
  timestamp: v.string(),
  accountId: v.string(),
  projectId: v.string(),
  env: environment,
  data,
});
const webhookDelivery = v.object({
  kind: v.literal('delivery'),
  deliveryId: v.string(),
  webhookId: v.string(),
  accountId: v.string(),
  projectId: v.string(),
  env: environment,
  event: v.picklist(EVENT_NAMES),
  timestamp: v.string(),
  data,
  attempt: v.pipe(v.number(), v.integer(), v.minValue(1)),
  test: v.optional(v.boolean()),
});
const webhookMessage = v.union([webhookDelivery, webhookEvent]);

export const webhooksQueue = defineQueue({
  name: 'webhooks',
  consumer: 'webhooks',
  batchSize: 10,
  visibilityTimeout: 60,
  maxReceiveCount: 5,
  message: webhookMessage,
});
export type WebhookMessage = v.InferOutput<typeof webhookMessage>;
/** What the emitter puts on the webhook queue; the consumer fans it out to matching endpoints. */
export type EventEnvelope = Exclude<WebhookMessage, { kind: 'delivery' }>;

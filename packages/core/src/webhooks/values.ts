import type { QueueMessage } from '../queues/registry.js';

/** The spec's webhook events. */
export const EVENT_NAMES = [
  'ticket.created',
  'ticket.resolved',
  'message.received',
  'feedback.submitted',
  'email.bounced',
  'customer.created',
  'customer.updated',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** What the emitter puts on the webhook queue; the consumer fans it out to matching endpoints. */
export type EventEnvelope = Exclude<QueueMessage<'webhooks'>, { kind: 'delivery' }>;

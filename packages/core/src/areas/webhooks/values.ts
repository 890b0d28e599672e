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

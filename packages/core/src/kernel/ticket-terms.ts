/**
 * The ticket terms other areas match on (SLA policies' conditions) without depending on the tickets
 * area, which depends on them: tickets/values.ts re-exports them.
 */
export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
/** The longest tag (tickets' tags, policies' tag conditions). */
export const TAG_MAX = 50;
export const CATEGORIES = ['bug', 'feature_request', 'billing', 'howto', 'other'] as const;

/** Where a ticket was opened (`ticket.created`): the API (and SDK), a received mail, the customer's web pages (help center, ticket page), or a split of another ticket. */
export const TICKET_SOURCES = ['api', 'email', 'portal', 'split'] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

/**
 * The indexes' names and the ticket list's projection: what entities need at run time. The table's
 * whole shape (table.ts) is for CDK, the local stack and the tests, and stays out of a Lambda's init.
 */

/** Shared indexes: every entity's lists but the ticket list's, whole items projected. */
export const GSI_NAMES = ['gsi1', 'gsi2', 'gsi3', 'gsi4'] as const;

/**
 * The ticket list's indexes (areas/tickets/entities.ts), tickets only. A ticket write moves its entry in
 * each of them (they sort by last activity), so an entry carries only what a list row shows and filters
 * on: the ticket item's other attributes (its thread links, metrics, merge record, the shared indexes'
 * keys) would be copied four times per write for nothing (docs/decisions.md, Cold start and cost).
 */
export const TICKET_LIST_GSI_NAMES = ['gsi5', 'gsi6', 'gsi7', 'gsi8'] as const;

/** What a ticket list entry holds besides the keys (ElectroDB's identifiers included, so it owns the rows). */
export const TICKET_LIST_ATTRIBUTES = [
  '__edb_e__',
  '__edb_v__',
  'projectId',
  'env',
  'ticketId',
  'number',
  'subject',
  'status',
  'priority',
  'category',
  'assignee',
  'customerEmail',
  'customerName',
  'lastSenderType',
  'lastMessageAt',
  'customFields',
  'sla',
  'createdAt',
  'updatedAt',
] as const;

/**
 * The email list's indexes (areas/emails/entities.ts), email rows only, one per filter. A row changes status
 * several times after its send (sending, sent, delivered, opened…) and its list answer is most of the row,
 * so an entry carries only the id and what the list filters on beside the index's own key; the page's rows
 * are then read whole (one BatchGetItem). Small also because DynamoDB allows 100 projected attributes per
 * table, summed over its indexes, and the ticket list's take 76 of them.
 */
export const EMAIL_LIST_INDEXES = {
  byCreated: { name: 'gsi9', attributes: ['emailId'] },
  byRecipient: { name: 'gsi10', attributes: ['emailId', 'status', 'templateRef'] },
  byTemplate: { name: 'gsi11', attributes: ['emailId', 'status', 'templateRef'] },
  byStatus: { name: 'gsi12', attributes: ['emailId'] },
} as const;
export const EMAIL_LIST_GSI_NAMES = ['gsi9', 'gsi10', 'gsi11', 'gsi12'] as const;

/**
 * The entities whose lists have indexes of their own, each with the attributes its entries carry: a table
 * made by an earlier release gains them one per stack update while the entity runs `migrating`
 * (docs/architecture.md, Upgrading).
 */
export const NARROW_LISTS: Record<NarrowList, readonly { name: string; attributes: readonly string[] }[]> = {
  ticket: TICKET_LIST_GSI_NAMES.map((name) => ({ name, attributes: TICKET_LIST_ATTRIBUTES })),
  email: Object.values(EMAIL_LIST_INDEXES),
};
export type NarrowList = 'ticket' | 'email';
/** How many of each entity's list indexes a table has (all when not named). */
export type ListIndexCounts = Partial<Record<NarrowList, number>>;

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

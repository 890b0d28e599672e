import type { FieldFilterQuery } from '../ticket-fields/schemas.js';
import type { TicketItem } from './present.js';
import { assigneeKey, priorityKey, statusKey, TOTAL } from './stats.js';
import {
  CATEGORIES,
  type Category,
  PRIORITIES,
  type Priority,
  SENDER_TYPES,
  type SenderType,
  type SLA_FILTERS,
  STATUSES,
  type Status,
  type TICKET_SORTS,
} from './values.js';

/**
 * How a ticket list is read, decided without touching the table: which filters are on, which index
 * partitions hold exactly the tickets of some of them, which of those sources is smallest (by the
 * counts every write keeps, stats.ts), and the page's window of the sorted rows. list.ts reads what
 * the plan names.
 */
export interface ListTicketsQuery {
  status?: Status;
  priority?: Priority;
  category?: Category;
  /** Member ids and/or `unassigned`. */
  assignee?: string[];
  number?: number;
  awaitingReply: boolean;
  search?: string;
  page: number;
  limit: number;
  cursor?: string;
  /** `field.<key>[.gte|.lte|.in]` filters, as the pipeline gathers them (ticket-fields/filters.ts). */
  field?: FieldFilterQuery;
  sla?: (typeof SLA_FILTERS)[number];
  sort?: (typeof TICKET_SORTS)[number];
}

/** The statuses in which a ticket can be awaiting a reply. */
export const OPEN_STATUSES: readonly Status[] = ['new', 'open', 'pending'];

type Filter = 'status' | 'awaitingReply' | 'assignee' | 'priority' | 'category' | 'search' | 'number';

/** Position in the activity order (updatedAt, ticketId), newest first; cursors carry the last row's. */
export interface Position {
  u: string;
  t: string;
}
/** A ticket or a search hit: what places it in the list order. */
export type Placed = Pick<TicketItem, 'updatedAt' | 'ticketId'>;
export const positionOf = (t: Placed): Position => ({ u: t.updatedAt, t: t.ticketId });
export const newerFirst = (a: Placed, b: Placed) =>
  b.updatedAt.localeCompare(a.updatedAt) || b.ticketId.localeCompare(a.ticketId);
export const isAfter = (t: Placed, p: Position) => t.updatedAt < p.u || (t.updatedAt === p.u && t.ticketId < p.t);

/** The search text as matched: trimmed, lower-cased; blank is no search. */
export const searchOf = (q: Pick<ListTicketsQuery, 'search'>) => q.search?.trim().toLowerCase() || undefined;

export function activeFilters(q: ListTicketsQuery): Set<Filter> {
  const on: [Filter, boolean][] = [
    ['status', q.status !== undefined],
    ['awaitingReply', q.awaitingReply],
    ['assignee', q.assignee !== undefined],
    ['priority', q.priority !== undefined],
    ['category', q.category !== undefined],
    ['search', searchOf(q) !== undefined],
    ['number', q.number !== undefined],
  ];
  return new Set(on.filter(([, active]) => active).map(([filter]) => filter));
}

/** Whether a ticket passes every filter of the query; `searchText` is what search matches in it. */
export const matcher = (q: ListTicketsQuery, searchText: (t: TicketItem) => string) => {
  const search = searchOf(q);
  return (t: TicketItem) =>
    (!q.status || t.status === q.status) &&
    (!q.awaitingReply || (OPEN_STATUSES.includes(t.status) && t.lastSenderType === 'customer')) &&
    (!q.assignee || q.assignee.includes(t.assignee)) &&
    (!q.priority || t.priority === q.priority) &&
    (!q.category || t.category === q.category) &&
    (!search || searchText(t).includes(search)) &&
    (q.number === undefined || t.number === q.number);
};

/** One partition of a list index: the index, the key values inside the tenant, and its ticket count. */
export type PartitionRef =
  | { index: 'byStatus'; key: { status: Status; lastSenderType: SenderType }; count: number }
  | { index: 'byAssignee'; key: { assignee: string }; count: number }
  | { index: 'byPriority'; key: { priority: Priority; category: Category }; count: number }
  | { index: 'recent'; key: Record<string, never>; count: number };

/** Partitions whose union is exactly the tickets matching the filters it `covers`. */
export interface Source {
  covers: readonly Filter[];
  partitions: PartitionRef[];
}

const sizeOf = (s: Source) => s.partitions.reduce((n, p) => n + p.count, 0);

/** Every source that can serve the query, the whole list last. */
export function sourcesFor(q: ListTicketsQuery, count: (key: string) => number): Source[] {
  const sources: Source[] = [];
  if (q.status || q.awaitingReply) {
    const statuses = (q.status ? [q.status] : STATUSES).filter((s) => !q.awaitingReply || OPEN_STATUSES.includes(s));
    const senders: readonly SenderType[] = q.awaitingReply ? ['customer'] : SENDER_TYPES;
    sources.push({
      covers: ['status', 'awaitingReply'],
      partitions: statuses.flatMap((status) =>
        senders.map((lastSenderType) => ({
          index: 'byStatus' as const,
          key: { status, lastSenderType },
          count: count(statusKey(status, lastSenderType)),
        })),
      ),
    });
  }
  if (q.assignee) {
    sources.push({
      covers: ['assignee'],
      partitions: q.assignee.map((assignee) => ({
        index: 'byAssignee' as const,
        key: { assignee },
        count: count(assigneeKey(assignee)),
      })),
    });
  }
  if (q.priority || q.category) {
    sources.push({
      covers: ['priority', 'category'],
      partitions: (q.priority ? [q.priority] : PRIORITIES).flatMap((priority) =>
        (q.category ? [q.category] : CATEGORIES).map((category) => ({
          index: 'byPriority' as const,
          key: { priority, category },
          count: count(priorityKey(priority, category)),
        })),
      ),
    });
  }
  sources.push({ covers: [], partitions: [{ index: 'recent', key: {}, count: count(TOTAL) }] });
  return sources;
}

/**
 * The partitions to read: the smallest source (empty partitions left out), its size, and whether it
 * holds exactly the matching tickets (every active filter is one it covers), so the page can be read
 * as a merge of its partitions' first rows instead of reading and filtering them whole.
 */
export function chooseSource(q: ListTicketsQuery, count: (key: string) => number) {
  const source = sourcesFor(q, count).reduce((best, s) => (sizeOf(s) < sizeOf(best) ? s : best));
  const exact = [...activeFilters(q)].every((f) => source.covers.includes(f));
  return { partitions: source.partitions.filter((p) => p.count > 0), size: sizeOf(source), exact };
}

/** Rows skipped before the page: none after a cursor (it already marks where the page starts). */
export const offsetOf = (q: ListTicketsQuery, after: Position | undefined) => (after ? 0 : (q.page - 1) * q.limit);

/** The page's slice of the sorted rows (already after the cursor) and where the next page starts. */
export function pageWindow<T extends Placed>(sorted: T[], offset: number, limit: number) {
  const rows = sorted.slice(offset, offset + limit);
  const last = rows.at(-1);
  const next = sorted.length > offset + limit && last ? positionOf(last) : undefined;
  return { rows, next };
}

import * as v from 'valibot';
import type { TenantContext } from '../auth/context.js';
import { errors } from '../errors/common.js';
import { decodeCursor, encodeCursor } from '../http/list.js';
import { isoDateTime, uuid } from '../http/schemas.js';
import { CATEGORIES, PRIORITIES, SENDER_TYPES, STATUSES, Ticket, TicketNumber, type Category, type Priority, type Status } from './entities.js';
import { toRow, type TicketItem } from './present.js';
import { searchHits, searchTextOf, ticketsByIds } from './search.js';
import { assigneeKey, priorityKey, readCounts, statusKey, TOTAL } from './stats.js';

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
}

/** The statuses in which a ticket can be awaiting a reply. */
const OPEN_STATUSES: Status[] = ['new', 'open', 'pending'];

type Filter = 'status' | 'awaitingReply' | 'assignee' | 'priority' | 'category' | 'search' | 'number';

/** Position in the activity order (updatedAt, ticketId), newest first; cursors carry the last row's. */
interface Position {
  u: string;
  t: string;
}
/** A ticket or a search hit: what places it in the list order. */
type Placed = Pick<TicketItem, 'updatedAt' | 'ticketId'>;
const positionOf = (t: Placed): Position => ({ u: t.updatedAt, t: t.ticketId });
const newerFirst = (a: Placed, b: Placed) => b.updatedAt.localeCompare(a.updatedAt) || b.ticketId.localeCompare(a.ticketId);
const isAfter = (t: Placed, p: Position) => t.updatedAt < p.u || (t.updatedAt === p.u && t.ticketId < p.t);

interface Chain {
  go(options: { order: 'desc'; count?: number; limit?: number; pages?: 'all' }): Promise<{ data: TicketItem[] }>;
  between(from: { updatedAt: string }, to: { updatedAt: string; ticketId: string }): Chain;
}

/** One index partition, with its count from the stats item. */
interface Partition {
  count: number;
  chain: () => Chain;
}

/** A set of index partitions whose union is exactly the tickets matching `covers`. */
interface Source {
  covers: Filter[];
  partitions: Partition[];
}

const sumOf = (s: Source) => s.partitions.reduce((n, p) => n + p.count, 0);

/** Reads a partition newest first, after the cursor, `count` rows or all of them. */
async function readPartition(p: Partition, after: Position | undefined, count: number | 'all') {
  const chain = after ? p.chain().between({ updatedAt: '0' }, { updatedAt: after.u, ticketId: after.t }) : p.chain();
  // The upper bound is inclusive: one more row stands for the cursor's own.
  const n = count === 'all' ? count : count + (after ? 1 : 0);
  const { data } = await chain.go(n === 'all' ? { order: 'desc', pages: 'all' } : { order: 'desc', count: n, limit: n });
  return after ? data.filter((t) => isAfter(t, after)) : data;
}

/**
 * Lists tickets, most recent activity first. Each single filter reads only the index partitions that
 * hold its tickets, and only as many rows as the page needs; `total` then comes from the counts kept
 * by every write (stats.ts). `search` reads compact search items (search.ts) and then the page's tickets.
 * Combined filters read the smallest matching source (search hits included) whole and filter it.
 */
export async function listTickets(ctx: TenantContext, q: ListTicketsQuery) {
  const after = q.cursor === undefined ? undefined : decodeCursor<Position>(q.cursor);
  // The position becomes a sort key bound: only what nextCursor can hold passes (a timestamp and an id).
  if (q.cursor !== undefined && !(v.is(isoDateTime, after?.u) && v.is(uuid, after?.t))) {
    throw errors.validation([{ field: 'cursor', in: 'query', message: 'Invalid cursor' }]);
  }
  const search = q.search?.trim().toLowerCase() || undefined;
  const active = new Set<Filter>();
  if (q.status) active.add('status');
  if (q.awaitingReply) active.add('awaitingReply');
  if (q.assignee) active.add('assignee');
  if (q.priority) active.add('priority');
  if (q.category) active.add('category');
  if (search) active.add('search');
  if (q.number !== undefined) active.add('number');

  const matches = (t: TicketItem) =>
    (!q.status || t.status === q.status) &&
    (!q.awaitingReply || (OPEN_STATUSES.includes(t.status) && t.lastSenderType === 'customer')) &&
    (!q.assignee || q.assignee.includes(t.assignee)) &&
    (!q.priority || t.priority === q.priority) &&
    (!q.category || t.category === q.category) &&
    (!search || searchTextOf(t).includes(search)) &&
    (q.number === undefined || t.number === q.number);

  const offset = after ? 0 : (q.page - 1) * q.limit;
  /** The page's slice of the matching rows (sorted, already after the cursor) and the next cursor. */
  const window = <T extends Placed>(sorted: T[]) => {
    const rows = sorted.slice(offset, offset + q.limit);
    const more = sorted.length > offset + q.limit;
    return { rows, nextCursor: more && rows.length ? encodeCursor(positionOf(rows[rows.length - 1]!)) : null };
  };
  const answer = (tickets: TicketItem[], total: number, nextCursor: string | null) => ({
    tickets: tickets.map((t) => toRow(ctx, t)),
    total,
    page: q.page,
    limit: q.limit,
    nextCursor,
  });
  const page = (sorted: TicketItem[], total: number) => {
    const { rows, nextCursor } = window(sorted);
    return answer(rows, total, nextCursor);
  };

  if (q.number !== undefined) {
    const ticket = await byNumber(ctx, q.number);
    const found = ticket && matches(ticket) ? [ticket] : [];
    return page(after ? found.filter((t) => isAfter(t, after)) : found, found.length);
  }

  // Search reads the compact search items, then only the page's tickets.
  const hits = search ? (await searchHits(ctx, search)).sort(newerFirst) : undefined;
  if (hits && active.size === 1) {
    const { rows, nextCursor } = window(after ? hits.filter((h) => isAfter(h, after)) : hits);
    const byId = new Map(
      (
        await ticketsByIds(
          ctx,
          rows.map((h) => h.ticketId),
        )
      ).map((t) => [t.ticketId, t]),
    );
    return answer(
      rows.flatMap((h) => byId.get(h.ticketId) ?? []),
      hits.length,
      nextCursor,
    );
  }

  const count = await readCounts(ctx);
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const sources: Source[] = [];
  if (q.status || q.awaitingReply) {
    const statuses = (q.status ? [q.status] : STATUSES).filter((s) => !q.awaitingReply || OPEN_STATUSES.includes(s));
    const senders = q.awaitingReply ? (['customer'] as const) : SENDER_TYPES;
    sources.push({
      covers: ['status', 'awaitingReply'],
      partitions: statuses.flatMap((status) =>
        senders.map((lastSenderType) => ({
          count: count(statusKey(status, lastSenderType)),
          chain: () => Ticket.query.byStatus({ ...tenant, status, lastSenderType }) as unknown as Chain,
        })),
      ),
    });
  }
  if (q.assignee) {
    sources.push({
      covers: ['assignee'],
      partitions: q.assignee.map((assignee) => ({
        count: count(assigneeKey(assignee)),
        chain: () => Ticket.query.byAssignee({ ...tenant, assignee }) as unknown as Chain,
      })),
    });
  }
  if (q.priority || q.category) {
    sources.push({
      covers: ['priority', 'category'],
      partitions: (q.priority ? [q.priority] : PRIORITIES).flatMap((priority) =>
        (q.category ? [q.category] : CATEGORIES).map((category) => ({
          count: count(priorityKey(priority, category)),
          chain: () => Ticket.query.byPriority({ ...tenant, priority, category }) as unknown as Chain,
        })),
      ),
    });
  }
  sources.push({ covers: [], partitions: [{ count: count(TOTAL), chain: () => Ticket.query.recent(tenant) as unknown as Chain }] });

  const source = sources.reduce((best, s) => (sumOf(s) < sumOf(best) ? s : best));
  const partitions = source.partitions.filter((p) => p.count > 0);
  const exact = [...active].every((f) => source.covers.includes(f));
  if (exact) {
    const need = offset + q.limit + 1;
    const read = await Promise.all(partitions.map((p) => readPartition(p, after, need)));
    return page(read.flat().sort(newerFirst), sumOf(source));
  }
  // Search with other filters: fetch the hits when they are fewer than the smallest source's tickets.
  const candidates =
    hits && hits.length <= sumOf(source)
      ? await ticketsByIds(
          ctx,
          hits.map((h) => h.ticketId),
        )
      : (await Promise.all(partitions.map((p) => readPartition(p, undefined, 'all')))).flat();
  const all = candidates.filter(matches).sort(newerFirst);
  return page(after ? all.filter((t) => isAfter(t, after)) : all, all.length);
}

/** Ticket number -> id, then the ticket: two GetItems. */
async function byNumber(ctx: TenantContext, number: number) {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const { data: ref } = await TicketNumber.get({ ...tenant, number }).go();
  if (!ref) return undefined;
  const { data } = await Ticket.get({ ...tenant, ticketId: ref.ticketId }).go();
  return data ?? undefined;
}

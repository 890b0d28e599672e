import * as v from 'valibot';
import { decodeCursor, encodeCursor } from '../../kernel/api/list.js';
import { isoDateTime, uuid } from '../../kernel/api/schemas.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext, TenantKey } from '../../kernel/tenant.js';
import { usedFields } from '../ticket-fields/definitions.js';
import { matchesFieldFilters, parseFieldFilters, ticketIdsFor } from '../ticket-fields/filters.js';
import { Ticket, TicketDue, TicketNumber } from './entities.js';
import {
  activeFilters,
  chooseSource,
  isAfter,
  type ListTicketsQuery,
  matcher,
  newerFirst,
  offsetOf,
  type PartitionRef,
  type Position,
  pageWindow,
  searchOf,
} from './list-plan.js';
import { type TicketItem, toRow, valuesOf } from './present.js';
import { searchHits, searchTextOf, ticketsByIds } from './search.js';
import { readCounts } from './stats.js';

interface Chain {
  go(options: { order: 'desc'; count?: number; limit?: number; pages?: 'all' }): Promise<{ data: TicketItem[] }>;
  between(from: { updatedAt: string }, to: { updatedAt: string; ticketId: string }): Chain;
}

/** The query of one planned partition. */
function chainOf(tenant: TenantKey, p: PartitionRef): Chain {
  const query =
    p.index === 'byStatus'
      ? Ticket.query.byStatus({ ...tenant, ...p.key })
      : p.index === 'byAssignee'
        ? Ticket.query.byAssignee({ ...tenant, ...p.key })
        : p.index === 'byPriority'
          ? Ticket.query.byPriority({ ...tenant, ...p.key })
          : Ticket.query.recent(tenant);
  return query as unknown as Chain;
}

/** Reads a partition newest first, after the cursor, `count` rows or all of them. */
async function readPartition(tenant: TenantKey, p: PartitionRef, after: Position | undefined, count: number | 'all') {
  const chain = after
    ? chainOf(tenant, p).between({ updatedAt: '0' }, { updatedAt: after.u, ticketId: after.t })
    : chainOf(tenant, p);
  // The upper bound is inclusive: one more row stands for the cursor's own.
  const n = count === 'all' ? count : count + (after ? 1 : 0);
  const { data } = await chain.go(
    n === 'all' ? { order: 'desc', pages: 'all' } : { order: 'desc', count: n, limit: n },
  );
  return after ? data.filter((t) => isAfter(t, after)) : data;
}

/**
 * Lists tickets, most recent activity first (the plan: list-plan.ts). Each single filter reads only the
 * index partitions that hold its tickets, and only as many rows as the page needs; `total` then comes
 * from the counts kept by every write (stats.ts). `search` reads compact search items (search.ts) and
 * then the page's tickets. Combined filters read the smallest matching source (search hits included)
 * whole and filter it.
 */
export async function listTickets(ctx: TenantContext, q: ListTicketsQuery) {
  const after = q.cursor === undefined ? undefined : decodeCursor<Position>(q.cursor);
  // The position becomes a sort key bound: only what nextCursor can hold passes (a timestamp and an id).
  if (q.cursor !== undefined && !(v.is(isoDateTime, after?.u) && v.is(uuid, after?.t))) {
    throw errors.validation([{ field: 'cursor', in: 'query', message: 'Invalid cursor' }]);
  }
  const search = searchOf(q);
  const active = activeFilters(q);
  const matches = matcher(q, searchTextOf);
  const offset = offsetOf(q, after);
  const window = <T extends TicketItem | Awaited<ReturnType<typeof searchHits>>[number]>(sorted: T[]) => {
    const { rows, next } = pageWindow(sorted, offset, q.limit);
    return { rows, nextCursor: next ? encodeCursor(next) : null };
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

  // SLA filters and the due order read the due index, then those tickets (other filters apply to them).
  if (q.sla || q.sort === 'sla_due') {
    if (q.cursor !== undefined && q.sort === 'sla_due')
      throw errors.validation([
        { field: 'cursor', in: 'query', message: 'sort=sla_due pages with page, not a cursor' },
      ]);
    const due = await dueTickets(ctx, q.sla);
    const filters = q.field && Object.keys(q.field).length ? await fieldFilters(ctx, q.field) : [];
    const order = new Map(due.map((d, i) => [d.ticketId, i]));
    const found = (await ticketsByIds(ctx, [...order.keys()])).filter(
      (t) => matches(t) && matchesFieldFilters(filters, valuesOf(t)),
    );
    if (q.sort !== 'sla_due') {
      const all = found.sort(newerFirst);
      return page(after ? all.filter((t) => isAfter(t, after)) : all, all.length);
    }
    const sorted = found.sort((a, b) => (order.get(a.ticketId) ?? 0) - (order.get(b.ticketId) ?? 0));
    return answer(sorted.slice((q.page - 1) * q.limit, q.page * q.limit), sorted.length, null);
  }

  // Field filters read their value indexes, then only the tickets every one of them names.
  if (q.field && Object.keys(q.field).length) {
    const filters = await fieldFilters(ctx, q.field);
    const sets = await Promise.all(filters.map((f) => ticketIdsFor(ctx, f)));
    const [first = new Set<string>(), ...rest] = sets;
    const ids = [...first].filter((id) => rest.every((set) => set.has(id)));
    const found = (await ticketsByIds(ctx, ids)).filter((t) => matches(t) && matchesFieldFilters(filters, valuesOf(t)));
    const all = found.sort(newerFirst);
    return page(after ? all.filter((t) => isAfter(t, after)) : all, all.length);
  }

  if (q.number !== undefined) {
    const ticket = await byNumber(ctx, q.number);
    const found = ticket && matches(ticket) ? [ticket] : [];
    return page(after ? found.filter((t) => isAfter(t, after)) : found, found.length);
  }

  // Search reads the compact search items, then only the page's tickets.
  const hits = search ? (await searchHits(ctx, search)).sort(newerFirst) : undefined;
  if (hits && active.size === 1) {
    const { rows, nextCursor } = window(after ? hits.filter((h) => isAfter(h, after)) : hits);
    const tickets = await ticketsByIds(
      ctx,
      rows.map((h) => h.ticketId),
    );
    const byId = new Map(tickets.map((t) => [t.ticketId, t]));
    return answer(
      rows.flatMap((h) => byId.get(h.ticketId) ?? []),
      hits.length,
      nextCursor,
    );
  }

  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const { partitions, size, exact } = chooseSource(q, await readCounts(ctx));
  if (exact) {
    const need = offset + q.limit + 1;
    const read = await Promise.all(partitions.map((p) => readPartition(tenant, p, after, need)));
    return page(read.flat().sort(newerFirst), size);
  }
  // Search with other filters: fetch the hits when they are fewer than the smallest source's tickets.
  const candidates =
    hits && hits.length <= size
      ? await ticketsByIds(
          ctx,
          hits.map((h) => h.ticketId),
        )
      : (await Promise.all(partitions.map((p) => readPartition(tenant, p, undefined, 'all')))).flat();
  const all = candidates.filter(matches).sort(newerFirst);
  return page(after ? all.filter((t) => isAfter(t, after)) : all, all.length);
}

/** The `field.*` filters, judged by the definitions of the fields they name. */
async function fieldFilters(ctx: TenantContext, field: NonNullable<ListTicketsQuery['field']>) {
  const named = Object.keys(field).map((name) => name.split('.')[0] ?? name);
  return parseFieldFilters(await usedFields(ctx, named), field);
}

/**
 * Tickets whose clocks run, soonest due first, from the due index: `breached` reads those due before
 * now, `at_risk` those due later whose at-risk point passed, `active` all of them.
 */
async function dueTickets(ctx: TenantContext, sla: ListTicketsQuery['sla']) {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const now = new Date().toISOString();
  const query = TicketDue.query.byDue(tenant);
  const chain = sla === 'breached' ? query.lt({ dueAt: now }) : sla === 'at_risk' ? query.gte({ dueAt: now }) : query;
  const { data } = await chain.go({ pages: 'all' });
  return sla === 'at_risk' ? data.filter((d) => d.warnAt !== undefined && d.warnAt <= now) : data;
}

/** Ticket number -> id, then the ticket: two GetItems. */
async function byNumber(ctx: TenantContext, number: number) {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const { data: ref } = await TicketNumber.get({ ...tenant, number }).go();
  if (!ref) return undefined;
  const { data } = await Ticket.get({ ...tenant, ticketId: ref.ticketId }).go();
  return data ?? undefined;
}

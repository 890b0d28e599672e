import {
  activeFilters,
  chooseSource,
  isAfter,
  type ListTicketsQuery,
  matcher,
  newerFirst,
  offsetOf,
  pageWindow,
  positionOf,
} from '@helpdesk/core/areas/tickets/list-plan';
import type { TicketItem } from '@helpdesk/core/areas/tickets/present';
import { describe, expect, it } from 'vitest';

const query = (q: Partial<ListTicketsQuery> = {}): ListTicketsQuery => ({
  awaitingReply: false,
  page: 1,
  limit: 25,
  ...q,
});
/** Counts as the stats item keeps them; absent keys count 0. */
const counts =
  (given: Record<string, number>) =>
  (key: string): number =>
    given[key] ?? 0;

const ticket = (t: Partial<TicketItem>) =>
  ({
    ticketId: '00000000-0000-4000-8000-000000000001',
    updatedAt: '2026-01-01T00:00:00.000Z',
    status: 'open',
    priority: 'medium',
    category: 'other',
    assignee: 'unassigned',
    lastSenderType: 'customer',
    number: 1,
    ...t,
  }) as TicketItem;

describe('the ticket list planner', () => {
  it('reads the whole-list partition when no filter is on, and it is exact', () => {
    const plan = chooseSource(query(), counts({ total: 40 }));
    expect(plan).toEqual({ partitions: [{ index: 'recent', key: {}, count: 40 }], size: 40, exact: true });
  });

  it('reads only the status partitions that hold tickets, one per last sender', () => {
    const plan = chooseSource(
      query({ status: 'open' }),
      counts({ total: 40, 's#open#customer': 3, 's#open#staff': 0 }),
    );
    expect(plan.partitions).toEqual([
      { index: 'byStatus', key: { status: 'open', lastSenderType: 'customer' }, count: 3 },
    ]);
    expect(plan).toMatchObject({ size: 3, exact: true });
  });

  it('answers awaitingReply from the open statuses with a customer last, exactly', () => {
    const plan = chooseSource(
      query({ awaitingReply: true }),
      counts({
        total: 90,
        's#new#customer': 2,
        's#open#customer': 5,
        's#pending#customer': 1,
        's#resolved#customer': 40,
      }),
    );
    expect(plan.partitions.map((p) => p.key)).toEqual([
      { status: 'new', lastSenderType: 'customer' },
      { status: 'open', lastSenderType: 'customer' },
      { status: 'pending', lastSenderType: 'customer' },
    ]);
    expect(plan).toMatchObject({ size: 8, exact: true });
  });

  it('picks the smallest source when filters combine, and then filters what it reads', () => {
    const plan = chooseSource(
      query({ status: 'open', priority: 'urgent' }),
      counts({ total: 100, 's#open#customer': 30, 's#open#staff': 20, 'pc#urgent#bug': 4, 'pc#urgent#other': 1 }),
    );
    expect(plan.partitions.map((p) => p.index)).toEqual(['byPriority', 'byPriority']);
    expect(plan).toMatchObject({ size: 5, exact: false });
  });

  it('reads one partition per assignee and counts unassigned as its own', () => {
    const plan = chooseSource(
      query({ assignee: ['unassigned', 'm1'] }),
      counts({ total: 9, 'a#unassigned': 6, 'a#m1': 2 }),
    );
    expect(plan.partitions.map((p) => p.key)).toEqual([{ assignee: 'unassigned' }, { assignee: 'm1' }]);
    expect(plan).toMatchObject({ size: 8, exact: true });
  });

  it('is never exact with a search, which no index covers', () => {
    expect(
      chooseSource(query({ search: 'login', status: 'new' }), counts({ total: 3, 's#new#customer': 3 })).exact,
    ).toBe(false);
    expect([...activeFilters(query({ search: '   ' }))]).toEqual([]);
    expect([...activeFilters(query({ search: ' X ', number: 3 }))]).toEqual(['search', 'number']);
  });

  it('matches every filter at once, search case-insensitively on the text it is given', () => {
    const matches = matcher(
      query({ status: 'open', search: 'LOGIN', assignee: ['m1'] }),
      (t) => `subject of ${t.number} login`,
    );
    expect(matches(ticket({ assignee: 'm1' }))).toBe(true);
    expect(matches(ticket({ assignee: 'm2' }))).toBe(false);
    expect(matches(ticket({ assignee: 'm1', status: 'new' }))).toBe(false);
    const awaiting = matcher(query({ awaitingReply: true }), () => '');
    expect(awaiting(ticket({ status: 'pending' }))).toBe(true);
    expect(awaiting(ticket({ status: 'resolved' }))).toBe(false);
    expect(awaiting(ticket({ lastSenderType: 'staff' }))).toBe(false);
  });

  it('pages by offset, or after a cursor, newest activity first with the id breaking ties', () => {
    const rows = ['c', 'a', 'b'].map((id, i) =>
      ticket({ ticketId: id, updatedAt: i === 2 ? '2026-01-02T00:00:00.000Z' : '2026-01-01T00:00:00.000Z' }),
    );
    const sorted = [...rows].sort(newerFirst);
    expect(sorted.map((t) => t.ticketId)).toEqual(['b', 'c', 'a']);
    const first = pageWindow(sorted, offsetOf(query({ limit: 2 }), undefined), 2);
    expect(first.rows.map((t) => t.ticketId)).toEqual(['b', 'c']);
    expect(first.next).toEqual(positionOf(sorted[1] as TicketItem));
    const after = first.next as NonNullable<typeof first.next>;
    const rest = sorted.filter((t) => isAfter(t, after));
    const second = pageWindow(rest, offsetOf(query({ page: 5, limit: 2 }), after), 2);
    expect(second.rows.map((t) => t.ticketId)).toEqual(['a']);
    expect(second.next).toBeUndefined();
    expect(offsetOf(query({ page: 3, limit: 10 }), undefined)).toBe(20);
  });
});

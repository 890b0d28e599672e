import type { EntityItem } from 'electrodb';
import { put, remove, type WriteItem } from '../../kernel/db/commit.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantRef } from '../../kernel/tenant.js';
import { type Activity, advanceAll, type SlaClock, targetView, warningAt } from '../sla/clock.js';
import { slaTimersQueue } from '../sla/queue.js';
import { rulesFor, type SlaSetup } from '../sla/setup.js';
import { SLA_TARGETS } from '../sla/values.js';
import { type Ticket, TicketDue } from './entities.js';

type TicketItem = EntityItem<typeof Ticket>;

export const clockOf = (t: Pick<TicketItem, 'sla'>) => t.sla as SlaClock | undefined;

/**
 * The ticket's clock after a change (tickets/update.ts applyChanges): a status change moves it, a new
 * priority or category chooses the policy again (with the project's setup, which the caller read), and
 * a public reply or customer message starts or achieves reply targets.
 */
export function nextClock(
  before: TicketItem,
  after: TicketItem,
  now: string,
  options: { activity?: 'staffReply' | 'customerMessage'; setup?: SlaSetup },
): SlaClock | undefined {
  const activities: Activity[] = [];
  const reprioritized = before.priority !== after.priority || before.category !== after.category;
  if (reprioritized && options.setup) activities.push({ kind: 'rules' });
  if (before.status !== after.status) activities.push({ kind: 'status', from: before.status, to: after.status });
  if (options.activity) activities.push({ kind: options.activity });
  const clock = clockOf(before);
  if (activities.length === 0) return clock;
  const rules =
    reprioritized && options.setup
      ? rulesFor(options.setup, { priority: after.priority, category: after.category, source: after.source })
      : clock?.rules;
  return advanceAll(clock, rules, activities, after.status, Date.parse(now));
}

/** The clock of a new ticket (undefined: no policy applies). */
export const startClock = (setup: SlaSetup, ticket: TicketItem) =>
  advanceAll(undefined, rulesFor(setup, ticket), [{ kind: 'created' }], ticket.status, Date.parse(ticket.createdAt));

/**
 * The schedules a clock change needs, committed with it: for every running target whose due time is
 * new, a breach timer at the due time and a warning timer where its at-risk share begins (if still
 * ahead). Ids are deterministic, so the same due time is scheduled once; older ones go stale.
 */
export function timerItems(
  ctx: TenantRef,
  ticketId: string,
  before: SlaClock | undefined,
  after: SlaClock | undefined,
  now: string,
): WriteItem[] {
  if (!after) return [];
  const items: WriteItem[] = [];
  for (const target of SLA_TARGETS) {
    const t = after.targets[target];
    if (!t?.runningSince || !t.dueAt || t.breachedAt || before?.targets[target]?.dueAt === t.dueAt) continue;
    const job = { projectId: ctx.projectId, env: ctx.env, accountId: ctx.accountId, ticketId, target, dueAt: t.dueAt };
    const id = (kind: string) => `sla-${ticketId}-${target}-${kind}-${t.dueAt}`;
    items.push(outboxItem(slaTimersQueue, { ...job, kind: 'breach' }, { id: id('breach'), at: new Date(t.dueAt) }));
    const warnAt = warningAt(after.rules, t);
    if (warnAt !== undefined && warnAt > Date.parse(now))
      items.push(outboxItem(slaTimersQueue, { ...job, kind: 'warning' }, { id: id('warning'), at: new Date(warnAt) }));
  }
  return items;
}

/** The earliest due time of the clock's running targets, and its at-risk point: the ticket's due-index key. */
export function dueOf(clock: SlaClock | undefined) {
  let best: { dueAt: string; warnAt?: string } | undefined;
  for (const name of SLA_TARGETS) {
    const t = clock?.targets[name];
    if (!clock || !t?.runningSince || !t.dueAt || (best && best.dueAt <= t.dueAt)) continue;
    const warn = warningAt(clock.rules, t);
    best = { dueAt: t.dueAt, ...(warn !== undefined ? { warnAt: new Date(warn).toISOString() } : {}) };
  }
  return best;
}

/** The due-index writes of a clock change: the old key removed and the new one put, when it moved. */
export function dueWrites(
  ticket: { projectId: string; env: 'live' | 'sandbox'; ticketId: string },
  before: SlaClock | undefined,
  after: SlaClock | undefined,
): WriteItem[] {
  const [was, now] = [dueOf(before), dueOf(after)];
  if (was?.dueAt === now?.dueAt && was?.warnAt === now?.warnAt) return [];
  const key = { projectId: ticket.projectId, env: ticket.env, ticketId: ticket.ticketId };
  return [
    ...(was && was.dueAt !== now?.dueAt ? [remove(TicketDue.delete({ ...key, dueAt: was.dueAt }))] : []),
    ...(now ? [put(TicketDue.put({ ...key, ...now }))] : []),
  ];
}

/** `ticket.sla` as the API shows it at `now`. */
export function slaView(t: Pick<TicketItem, 'sla'>, now = Date.now()) {
  const clock = clockOf(t);
  if (!clock) return null;
  const targets = Object.fromEntries(
    SLA_TARGETS.map((name) => {
      const target = clock.targets[name];
      return [name, target ? targetView(clock.rules, target, now) : null];
    }),
  ) as Record<(typeof SLA_TARGETS)[number], ReturnType<typeof targetView> | null>;
  return {
    policyId: clock.rules.policyId,
    time: clock.rules.calendar ? ('business' as const) : ('calendar' as const),
    targets,
  };
}

import { isDeepStrictEqual } from 'node:util';
import type { EntityItem } from 'electrodb';
import { put, remove, type WriteItem } from '../../kernel/db/commit.js';
import { MAX_DELAY_SECONDS, outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantRef } from '../../kernel/tenant.js';
import { Customer } from '../customers/entities.js';
import {
  type Activity,
  advanceAll,
  type ClockRules,
  type SlaClock,
  type TargetClock,
  targetView,
  warningAt,
} from '../sla/clock.js';
import { slaTimersQueue } from '../sla/queue.js';
import { needs, rulesFor, type SlaSetup, type TicketFacts } from '../sla/setup.js';
import { SLA_TARGETS, type SlaTarget } from '../sla/values.js';
import { Tag, type Ticket, TicketDue } from './entities.js';

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
  options: {
    activity?: 'staffReply' | 'customerMessage';
    setup?: SlaSetup;
    /** The ticket's tags and customer metadata where the setup matches on them (`factsOf`). */
    facts?: KnownFacts;
    /** Something a policy matches on besides priority and category changed (its tags). */
    rechoose?: boolean;
    /** An unmerge: the next-reply wait the merge handed to this ticket goes back (merge.ts). */
    waitTakenBack?: { startedAt: string; previous?: TargetClock };
  },
): SlaClock | undefined {
  const clock = clockOf(before);
  const changedFacts = options.rechoose || before.priority !== after.priority || before.category !== after.category;
  const chosen = changedFacts && options.setup ? rulesFor(options.setup, factsFrom(after, options.facts)) : undefined;
  // The same policy chosen again moves nothing (a breach stays where it happened).
  const rechosen = changedFacts && options.setup !== undefined && !sameRules(chosen, clock);
  const activities: Activity[] = [];
  if (rechosen) activities.push({ kind: 'rules' });
  if (before.status !== after.status) activities.push({ kind: 'status', from: before.status, to: after.status });
  if (options.activity) activities.push({ kind: options.activity });
  if (options.waitTakenBack) activities.push({ kind: 'waitTakenBack', ...options.waitTakenBack });
  if (activities.length === 0) return clock;
  return advanceAll(clock, rechosen ? chosen : clock?.rules, activities, after.status, Date.parse(now));
}

type KnownFacts = Pick<TicketFacts, 'tags' | 'customerMetadata'>;
/** Whether a clock already runs under these rules (undefined: no policy applies, and no clock runs). */
export const sameRules = (rules: ClockRules | undefined, clock: SlaClock | undefined) =>
  isDeepStrictEqual(plain(rules), plain(clock?.rules));
// As stored: no undefined members (key order is not kept by the table and not compared).
const plain = (x: unknown) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));

const factsFrom = (t: TicketItem, facts: KnownFacts = {}): TicketFacts => ({
  priority: t.priority,
  category: t.category,
  ...(t.source ? { source: t.source } : {}),
  ...facts,
});

/**
 * The ticket's tags and its customer's metadata, read only when some policy of the setup matches on them
 * (`known` holds what the caller has already: a new ticket's tags, a tag change's result).
 */
export async function factsOf(
  ticket: Pick<TicketItem, 'projectId' | 'env' | 'ticketId' | 'customerId'>,
  setup: SlaSetup,
  known: KnownFacts = {},
): Promise<KnownFacts> {
  const wanted = needs(setup);
  const key = { projectId: ticket.projectId, env: ticket.env };
  const [tags, customerMetadata] = await Promise.all([
    known.tags ?? (wanted.tags ? tagsOf(key, ticket.ticketId) : undefined),
    known.customerMetadata ?? (wanted.customerMetadata ? metadataOf(key, ticket.customerId) : undefined),
  ]);
  return { ...(tags ? { tags } : {}), ...(customerMetadata ? { customerMetadata } : {}) };
}

type Tenant = Pick<TicketItem, 'projectId' | 'env'>;
const tagsOf = async (key: Tenant, ticketId: string) =>
  (await Tag.query.byTicket({ ...key, ticketId }).go({ pages: 'all' })).data.map((t) => t.tag);
const metadataOf = async (key: Tenant, customerId: string) =>
  ((await Customer.get({ ...key, customerId }).go()).data?.metadata ?? {}) as Record<string, string>;

/** The clock of a new ticket (undefined: no policy applies). */
export const startClock = (setup: SlaSetup, ticket: TicketItem, facts: KnownFacts = {}) =>
  advanceAll(
    undefined,
    rulesFor(setup, factsFrom(ticket, facts)),
    [{ kind: 'created' }],
    ticket.status,
    Date.parse(ticket.createdAt),
  );

const timerId = (ticketId: string, target: SlaTarget, kind: 'breach' | 'warning', dueAt: string) =>
  `sla-${ticketId}-${target}-${kind}-${dueAt}`;

/**
 * The schedules a clock change needs, committed with it: for every running target whose due time is
 * new, a breach timer at the due time and a warning timer where its at-risk share begins (if still
 * ahead). Ids are deterministic, so the same due time is scheduled once. The timers the change made
 * stale are cancelled by one message naming them, when they are schedules (due past SQS's longest
 * delay); a stale delayed message fires and does nothing.
 */
export function timerItems(
  ctx: TenantRef,
  ticketId: string,
  before: SlaClock | undefined,
  after: SlaClock | undefined,
  now: string,
): WriteItem[] {
  const items: WriteItem[] = [];
  const stale: string[] = [];
  const scheduled = (at: number | undefined) => at !== undefined && at > Date.parse(now) + MAX_DELAY_SECONDS * 1000;
  for (const target of SLA_TARGETS) {
    const t = after?.targets[target];
    const old = before?.targets[target];
    const running = (x: TargetClock | undefined): x is TargetClock & { dueAt: string } =>
      Boolean(x?.runningSince && x.dueAt && !x.breachedAt);
    if (running(old) && before && !(running(t) && t.dueAt === old.dueAt)) {
      if (scheduled(Date.parse(old.dueAt))) stale.push(timerId(ticketId, target, 'breach', old.dueAt));
      if (scheduled(warningAt(before.rules, old))) stale.push(timerId(ticketId, target, 'warning', old.dueAt));
    }
    if (!after || !running(t) || old?.dueAt === t.dueAt) continue;
    const job = { projectId: ctx.projectId, env: ctx.env, accountId: ctx.accountId, ticketId, target, dueAt: t.dueAt };
    const id = (kind: 'breach' | 'warning') => timerId(ticketId, target, kind, t.dueAt);
    items.push(outboxItem(slaTimersQueue, { ...job, kind: 'breach' }, { id: id('breach'), at: new Date(t.dueAt) }));
    const warnAt = warningAt(after.rules, t);
    if (warnAt !== undefined && warnAt > Date.parse(now))
      items.push(outboxItem(slaTimersQueue, { ...job, kind: 'warning' }, { id: id('warning'), at: new Date(warnAt) }));
  }
  if (stale.length) items.push(outboxItem(slaTimersQueue, { kind: 'cancel', jobIds: stale }));
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

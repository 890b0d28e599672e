import { addBusinessMinutes, businessMinutesBetween, type Calendar } from './business-time.js';
import { SLA_TARGETS, type SlaTarget, type TargetStatus } from './values.js';

/**
 * A ticket's SLA clock: pure functions from the clock as stored, the policy that applies and what just
 * happened to the clock after it. The ticket's write stores the result in the same commit as the change
 * (tickets/update.ts), so the clock is never behind the ticket.
 *
 * Each target runs, pauses and ends on its own. `used` holds the minutes spent in finished runs
 * (business minutes with a calendar, else calendar minutes); a running target has `runningSince` and
 * the `dueAt` that the rest of its minutes reach from there.
 */
export interface TargetClock {
  minutes: number;
  status: TargetStatus;
  startedAt: string;
  used: number;
  runningSince?: string;
  dueAt?: string;
  achievedAt?: string;
  breachedAt?: string;
}

/** The rules a clock runs under, copied from its policy: a policy deleted later leaves its clocks running. */
export interface ClockRules {
  policyId: string;
  targets: Partial<Record<SlaTarget, number>>;
  calendar?: Calendar & { id: string };
  pauseOnPending: boolean;
  stopOnResolved: boolean;
  atRisk: number;
}

export interface SlaClock {
  rules: ClockRules;
  targets: Partial<Record<SlaTarget, TargetClock>>;
}

export type Activity =
  | { kind: 'created' }
  | { kind: 'staffReply' }
  | { kind: 'customerMessage' }
  | { kind: 'status'; from: string; to: string }
  /** Priority or category changed: the policy that applies is chosen again. */
  | { kind: 'rules' }
  /**
   * An unmerge takes back the wait a merge handed over: the next-reply target the merge started (by its
   * start) gives way to the one before it, unless it has ended since (an answer met it).
   */
  | { kind: 'waitTakenBack'; startedAt: string; previous?: TargetClock };

const MINUTE = 60_000;

/** Minutes of the rules' time between two instants. */
export const elapsed = (rules: ClockRules, from: number, to: number) =>
  rules.calendar ? businessMinutesBetween(rules.calendar, from, to) : Math.max(0, to - from) / MINUTE;
/** The instant `minutes` of the rules' time after `from` (undefined: the calendar has no hours ahead). */
export const reach = (rules: ClockRules, from: number, minutes: number) =>
  rules.calendar ? addBusinessMinutes(rules.calendar, from, minutes) : from + minutes * MINUTE;

const isoOf = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const isOver = (t: TargetClock) => t.status === 'achieved' || t.achievedAt !== undefined;

function run(rules: ClockRules, t: TargetClock, now: number): TargetClock {
  const dueAt = isoOf(reach(rules, now, Math.max(0, t.minutes - t.used)));
  return { ...t, runningSince: new Date(now).toISOString(), ...(dueAt ? { dueAt } : {}) };
}

/** A running target whose due time passed is breached at that time (it keeps running until achieved); an answer in the due minute itself is in time. */
function settle(t: TargetClock, now: number): TargetClock {
  if (t.runningSince && t.dueAt && Date.parse(t.dueAt) < now && !t.breachedAt)
    return { ...t, status: 'breached', breachedAt: t.dueAt };
  return t;
}

function stop(rules: ClockRules, t: TargetClock, now: number): TargetClock {
  const since = t.runningSince;
  if (!since) return t;
  const { runningSince: _r, dueAt: _d, ...rest } = settle(t, now);
  return { ...rest, used: rest.used + elapsed(rules, Date.parse(since), now) };
}

const pause = (rules: ClockRules, t: TargetClock, now: number): TargetClock => {
  const stopped = stop(rules, t, now);
  return stopped.status === 'active' ? { ...stopped, status: 'paused' } : stopped;
};

function achieve(rules: ClockRules, t: TargetClock, now: number): TargetClock {
  const stopped = stop(rules, t, now);
  return { ...stopped, status: stopped.breachedAt ? 'breached' : 'achieved', achievedAt: new Date(now).toISOString() };
}

const fresh = (rules: ClockRules, minutes: number, now: number, paused: boolean): TargetClock => {
  const t: TargetClock = {
    minutes,
    status: paused ? 'paused' : 'active',
    startedAt: new Date(now).toISOString(),
    used: 0,
  };
  return paused ? t : run(rules, t, now);
};

/** Whether the ticket's status holds the clocks still. */
const holds = (rules: ClockRules, status: string) =>
  (rules.pauseOnPending && status === 'pending') ||
  (rules.stopOnResolved && status === 'resolved') ||
  status === 'closed';

/** The clock after several things at once (a customer message that also reopened the ticket), in order. */
export const advanceAll = (
  clock: SlaClock | undefined,
  rules: ClockRules | undefined,
  activities: readonly Activity[],
  status: string,
  now: number,
) => activities.reduce<SlaClock | undefined>((c, a) => advance(c, rules, a, status, now), clock);

/**
 * The clock after `activity` at `now`, for a ticket now in `status` under `rules` (undefined: no policy
 * applies, and the ticket has no clock).
 */
export function advance(
  clock: SlaClock | undefined,
  rules: ClockRules | undefined,
  activity: Activity,
  status: string,
  now: number,
): SlaClock | undefined {
  if (!rules) return undefined;
  if (!clock || activity.kind === 'created') return start(rules, status, now);
  const targets = { ...clock.targets };
  const each = (f: (t: TargetClock, name: SlaTarget) => TargetClock | undefined) => {
    for (const name of SLA_TARGETS) {
      const t = targets[name];
      if (!t) continue;
      const next = f(t, name);
      if (next) targets[name] = next;
      else delete targets[name];
    }
  };
  const current = activity.kind === 'rules' ? rules : clock.rules;
  switch (activity.kind) {
    case 'staffReply':
      each((t, name) => (name !== 'resolution' && !isOver(t) ? achieve(current, t, now) : t));
      break;
    case 'customerMessage': {
      const next = current.targets.nextReply;
      const first = targets.firstReply;
      const waiting = targets.nextReply && !isOver(targets.nextReply);
      // Each customer message after an answered one starts a next-reply clock; one already waiting keeps its time.
      if (next !== undefined && (!first || isOver(first)) && !waiting)
        targets.nextReply = fresh(current, next, now, holds(current, status));
      break;
    }
    case 'status': {
      const { from, to } = activity;
      if ((to === 'resolved' && current.stopOnResolved) || to === 'closed') {
        each((t, name) =>
          name === 'resolution' ? (isOver(t) ? t : achieve(current, t, now)) : pause(current, t, now),
        );
      } else if (holds(current, to)) {
        each((t) => pause(current, t, now));
      } else if (holds(current, from) || from === 'resolved' || from === 'closed') {
        // Reopened or no longer waiting on the customer: what was not achieved runs again; a reopen
        // resumes the resolution clock where it stopped (full resolution time).
        each((t, name) => {
          const reopened = name === 'resolution' && (from === 'resolved' || from === 'closed') && t.achievedAt;
          if (reopened) {
            const { achievedAt: _, ...rest } = t;
            return run(current, { ...rest, status: rest.breachedAt ? 'breached' : 'active' }, now);
          }
          return isOver(t) || t.runningSince
            ? t
            : run(current, { ...t, status: t.breachedAt ? 'breached' : 'active' }, now);
        });
      }
      break;
    }
    case 'waitTakenBack': {
      const handed = targets.nextReply;
      if (handed && handed.startedAt === activity.startedAt && !isOver(handed)) {
        if (activity.previous) targets.nextReply = activity.previous;
        else delete targets.nextReply;
      }
      break;
    }
    case 'rules': {
      // A new priority or category may choose another policy: the minutes used so far count against its targets.
      each((t, name) => {
        const minutes = rules.targets[name];
        if (minutes === undefined) return undefined;
        const stopped = stop(clock.rules, t, now);
        const { breachedAt: _, ...rest } = stopped;
        const renewed: TargetClock = {
          ...rest,
          minutes,
          status: isOver(t) ? t.status : rest.status === 'breached' ? 'active' : rest.status,
        };
        if (!t.runningSince) return renewed;
        const ran = run(rules, renewed, now);
        // Already past the new target: breached from the change on.
        return ran.used >= ran.minutes ? { ...ran, status: 'breached', breachedAt: new Date(now).toISOString() } : ran;
      });
      for (const name of ['firstReply', 'resolution'] as const) {
        const minutes = rules.targets[name];
        if (minutes !== undefined && !targets[name]) targets[name] = fresh(rules, minutes, now, holds(rules, status));
      }
      return { rules, targets: settleAll(targets, now) };
    }
  }
  return { rules: current, targets: settleAll(targets, now) };
}

function start(rules: ClockRules, status: string, now: number): SlaClock {
  const targets: SlaClock['targets'] = {};
  for (const name of ['firstReply', 'resolution'] as const) {
    const minutes = rules.targets[name];
    if (minutes !== undefined) targets[name] = fresh(rules, minutes, now, holds(rules, status));
  }
  return { rules, targets: settleAll(targets, now) };
}

function settleAll(targets: SlaClock['targets'], now: number) {
  const out: SlaClock['targets'] = {};
  for (const name of SLA_TARGETS) {
    const t = targets[name];
    if (t) out[name] = settle(t, now);
  }
  return out;
}

/** A target as of `now`, as the API shows it: a due time passed is a breach even before its timer fired. */
export function targetView(rules: ClockRules, t: TargetClock, now: number) {
  const s = settle(t, now);
  const used = s.runningSince ? s.used + elapsed(rules, Date.parse(s.runningSince), now) : s.used;
  return {
    minutes: s.minutes,
    status: s.status,
    dueAt: s.dueAt ?? null,
    atRisk: s.status === 'active' && s.dueAt !== undefined && s.minutes - used <= s.minutes * rules.atRisk,
    breachedAt: s.breachedAt ?? null,
    achievedAt: s.achievedAt ?? null,
    usedMinutes: Math.round(used * 100) / 100,
  };
}

/** When a running target enters its last `atRisk` share (undefined: already in it, or not running). */
export function warningAt(rules: ClockRules, t: TargetClock) {
  if (!t.runningSince || t.status !== 'active') return undefined;
  const before = t.minutes * (1 - rules.atRisk) - t.used;
  return before > 0 ? reach(rules, Date.parse(t.runningSince), before) : undefined;
}

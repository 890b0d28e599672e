import { businessMinutesBetween, type Calendar } from './business-time.js';

/**
 * Per-ticket metrics (`ticket.metrics`) and the histograms the team's metrics are read from. Pure: the
 * tickets area moves them in each write and stores the day's counters in the same transaction.
 */
export interface Duration {
  calendar: number;
  /** Business minutes of the ticket's SLA calendar (null without one). */
  business: number | null;
  at: string;
}
export interface TicketMetrics {
  firstReply?: Duration;
  /** Full resolution: a reopen clears it, the next resolve sets it again. */
  resolution?: Duration;
  replies: number;
  reopens: number;
}

const DONE = new Set(['resolved', 'closed']);
const round = (n: number) => Math.round(n * 100) / 100;

function duration(createdAt: string, now: string, calendar: Calendar | undefined): Duration {
  const [from, to] = [Date.parse(createdAt), Date.parse(now)];
  return {
    calendar: round(Math.max(0, to - from) / 60_000),
    business: calendar ? round(businessMinutesBetween(calendar, from, to)) : null,
    at: now,
  };
}

export function nextMetrics(
  m: TicketMetrics | undefined,
  /** `undo`: an unmerge gives back the status the merge took; the resolution the merge made goes, no reopen counts. */
  change: { staffReply: boolean; from: string; to: string; undo?: boolean },
  createdAt: string,
  now: string,
  calendar?: Calendar,
): TicketMetrics {
  const next: TicketMetrics = { replies: 0, reopens: 0, ...m };
  if (change.staffReply) {
    next.replies += 1;
    next.firstReply ??= duration(createdAt, now, calendar);
  }
  if (DONE.has(change.to) && !DONE.has(change.from)) next.resolution = duration(createdAt, now, calendar);
  if (DONE.has(change.from) && !DONE.has(change.to)) {
    if (!change.undo) next.reopens += 1;
    delete next.resolution;
  }
  return next;
}

/**
 * Histogram buckets of minutes, each 25% wider than the one before (bucket 0 holds up to a minute):
 * a median or 90th percentile read from them is within about 12% of the true value.
 */
const RATIO = 1.25;
export const bucketOf = (minutes: number) => (minutes <= 1 ? 0 : Math.ceil(Math.log(minutes) / Math.log(RATIO)));
/** A bucket's representative value: the geometric middle of its bounds. */
const middleOf = (bucket: number) => (bucket === 0 ? 1 : RATIO ** (bucket - 0.5));

/** The median and 90th percentile of a histogram (bucket -> count), in minutes (null when empty). */
export function percentiles(histogram: Map<number, number>) {
  const total = [...histogram.values()].reduce((a, b) => a + b, 0);
  const at = (share: number) => {
    if (total === 0) return null;
    let seen = 0;
    for (const [bucket, n] of [...histogram].sort((a, b) => a[0] - b[0])) {
      seen += n;
      if (seen >= share * total) return Math.round(middleOf(bucket) * 10) / 10;
    }
    return null;
  };
  return { count: total, medianMinutes: at(0.5), p90Minutes: at(0.9) };
}

import { ttlIn } from '../../kernel/db/client.js';
import { update, type WriteItem } from '../../kernel/db/commit.js';
import { LogIssueCount } from './alert-entities.js';
import type { Tenant } from './merge.js';
import { BASELINE_HOURS, MAX_WINDOW_MINUTES } from './values.js';

type Unit = 'm' | 'h' | 'd';
/** ISO time cut to the unit: `2026-11-26T22:46`, `2026-11-26T22`, `2026-11-26`. */
const CUT = { m: 16, h: 13, d: 10 } as const;
const bucketOf = (timestamp: string, unit: Unit) => new Date(timestamp).toISOString().slice(0, CUT[unit]);
/** Kept long enough for the longest window and its baseline, and for the charts (24 hours, 30 days). */
const TTL_SECONDS = {
  m: (MAX_WINDOW_MINUTES * 60 + 86_400) * 2,
  h: (BASELINE_HOURS + 48) * 3600,
  d: 40 * 86_400,
} as const;
const MINUTE = 60_000;

/** Distinct minutes a set of events falls in: a counting transaction takes events of at most this many. */
export const MINUTES_PER_COUNT = 15;

/**
 * The counter ADDs for events of one issue, in the transaction that counts them (their markers make
 * it once per event): per hour and day of each event's own time, not of its arrival (the issue's
 * charts), and per minute when the project has alert rules (their windows; nothing else reads them).
 */
export function countWrites(
  tenant: Tenant,
  issueId: string,
  timestamps: readonly string[],
  minutes: boolean,
): WriteItem[] {
  const adds = new Map<string, { unit: Unit; bucket: string; n: number }>();
  const units = minutes ? (['m', 'h', 'd'] as const) : (['h', 'd'] as const);
  for (const ts of timestamps)
    for (const unit of units) {
      const bucket = bucketOf(ts, unit);
      const key = `${unit}${bucket}`;
      const seen = adds.get(key);
      if (seen) seen.n++;
      else adds.set(key, { unit, bucket, n: 1 });
    }
  return [...adds.values()].map(({ unit, bucket, n }) =>
    update(
      LogIssueCount.update({ ...tenant, issueId, unit, bucket })
        .add({ count: n })
        .set({ expiresAt: ttlIn(TTL_SECONDS[unit]) }),
    ),
  );
}

/** Splits events so that each part falls in at most MINUTES_PER_COUNT minutes (its counters fit one transaction). */
export function byMinutes<E extends { timestamp: string }>(events: readonly E[]): E[][] {
  const parts: E[][] = [];
  let current: E[] = [];
  let minutes = new Set<string>();
  for (const e of [...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp))) {
    const minute = bucketOf(e.timestamp, 'm');
    if (!minutes.has(minute) && minutes.size === MINUTES_PER_COUNT) {
      parts.push(current);
      current = [];
      minutes = new Set();
    }
    minutes.add(minute);
    current.push(e);
  }
  if (current.length) parts.push(current);
  return parts;
}

/** Counts per bucket of one unit over [from, to] (bucket strings), as a map; one Query. */
export async function countsBetween(tenant: Tenant, issueId: string, unit: Unit, from: string, to: string) {
  const { data } = await LogIssueCount.query
    .byIssue({ ...tenant, issueId, unit })
    .between({ bucket: from }, { bucket: to })
    .go({ pages: 'all' });
  return new Map(data.map((c) => [c.bucket, c.count ?? 0]));
}

export const minuteOf = (timestamp: string) => bucketOf(timestamp, 'm');
export const hourOf = (timestamp: string) => bucketOf(timestamp, 'h');
export const dayOf = (timestamp: string) => bucketOf(timestamp, 'd');
/** The minute bucket `n` minutes after (negative: before) a minute bucket. */
export const minutesAfter = (minute: string, n: number) =>
  new Date(Date.parse(`${minute}:00Z`) + n * MINUTE).toISOString().slice(0, CUT.m);

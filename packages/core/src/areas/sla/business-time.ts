import { WEEKDAYS, type Weekday } from './values.js';

/**
 * Business time in a calendar's zone. Every interval is turned into instants through the zone's
 * offset on that very day (Intl knows the IANA rules), so an hour lost or gained by a DST change is
 * lost or gained by the clock exactly as a wall clock in that zone shows it; a day is never assumed
 * to be 24 hours. No library: Intl is in every Node runtime Lambda offers.
 */
export interface Calendar {
  timeZone: string;
  /** Weekly intervals in local wall time; `end` may be 24:00. Several a day are allowed. */
  hours: Array<{ day: Weekday; start: string; end: string }>;
  /** Local dates (YYYY-MM-DD) without business hours; a recurring one every year (its MM-DD). */
  holidays: Array<{ date: string; recurring?: boolean }>;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far ahead a clock looks for business time: a calendar with none in three years has none. */
const HORIZON_DAYS = 3 * 366;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Berlin). */
export function isTimeZone(timeZone: string) {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's wall clock at an instant, as fields. */
function wallClock(instant: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string) {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a local wall time names. A time skipped by a DST change (02:30 on the spring-forward
 * night) is taken as the same time after the jump; a time that happens twice, as its first occurrence.
 */
export function zonedInstant(date: { year: number; month: number; day: number }, minutes: number, timeZone: string) {
  const wall = Date.UTC(date.year, date.month - 1, date.day, 0, minutes);
  // The offsets a day before and after: a zone changes its offset at most once in between.
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const readsAsWall = [wall - before, wall - after].filter((c) => c + offsetAt(c, timeZone) === wall);
  // None in a skipped hour: the offset before the jump carries the time past it.
  return readsAsWall.length ? Math.min(...readsAsWall) : wall - before;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The business intervals (UTC milliseconds) from the local day of `from` on, clipped to start at `from`. */
function* intervalsFrom(calendar: Calendar, from: number): Generator<[number, number]> {
  const start = wallClock(from, calendar.timeZone);
  const holidays = new Set(calendar.holidays.filter((h) => !h.recurring).map((h) => h.date));
  const yearly = new Set(calendar.holidays.filter((h) => h.recurring).map((h) => h.date.slice(5)));
  const byDay = WEEKDAYS.map((day) =>
    calendar.hours
      .filter((h) => h.day === day)
      .map((h) => [minutesOf(h.start), minutesOf(h.end)] as const)
      .sort((a, b) => a[0] - b[0]),
  );
  for (let i = 0; i < HORIZON_DAYS; i++) {
    const d = new Date(Date.UTC(start.year, start.month - 1, start.day + i));
    const date = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
    const iso = d.toISOString().slice(0, 10);
    if (holidays.has(iso) || yearly.has(iso.slice(5))) continue;
    // getUTCDay: 0 is Sunday; WEEKDAYS starts on Monday.
    for (const [s, e] of byDay[(d.getUTCDay() + 6) % 7] ?? []) {
      const [a, b] = [zonedInstant(date, s, calendar.timeZone), zonedInstant(date, e, calendar.timeZone)];
      if (b > from && b > a) yield [Math.max(a, from), b];
    }
  }
}

/** The instant `minutes` of business time after `from` (undefined: the calendar has none ahead). */
export function addBusinessMinutes(calendar: Calendar, from: number, minutes: number): number | undefined {
  let left = minutes * MINUTE;
  if (left <= 0) return from;
  for (const [a, b] of intervalsFrom(calendar, from)) {
    if (b - a >= left) return a + left;
    left -= b - a;
  }
  return undefined;
}

/** Business minutes between two instants (0 when `to` is not after `from`). */
export function businessMinutesBetween(calendar: Calendar, from: number, to: number): number {
  let total = 0;
  if (to <= from) return 0;
  for (const [a, b] of intervalsFrom(calendar, from)) {
    if (a >= to) break;
    total += Math.min(b, to) - a;
  }
  return total / MINUTE;
}

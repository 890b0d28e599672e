/**
 * `dateFrom`/`dateTo` (schemas.ts `dateQuery`) as bounds on stored times, which carry milliseconds: a date
 * covers its whole UTC day, a date-time is an instant. A date-time finer than a millisecond rounds inward
 * (`from` up, `to` down), so no stored time outside the asked range is kept.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
/** The latest bound: past year 9999 an ISO string gains a sign and would sort before every real date. */
export const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

const isDateOnly = (s: string) => s.length === 10;
/** Digits past the milliseconds that are not all zero (`.3831`): the instant lies inside its millisecond. */
const finerThanMs = (s: string) => {
  const dot = s.indexOf('.');
  if (dot < 0) return false;
  let end = dot + 1;
  while (end < s.length && s.charCodeAt(end) >= 48 && s.charCodeAt(end) <= 57) end++;
  return /[1-9]/.test(s.slice(dot + 4, end));
};

/** The first millisecond `dateFrom` admits. */
export const firstMs = (dateFrom: string) => Date.parse(dateFrom) + (finerThanMs(dateFrom) ? 1 : 0);

/** The last millisecond `dateTo` admits. */
export const lastMs = (dateTo: string) =>
  Math.min(LATEST, isDateOnly(dateTo) ? Date.parse(dateTo) + DAY_MS - 1 : Date.parse(dateTo));

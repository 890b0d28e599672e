/**
 * The value an invariant of the code guarantees (a first element of a list known to be non-empty, a
 * route the pipeline has resolved). A broken invariant is a bug: it throws, and the caller's error
 * handling answers 500 `internal` or lets SQS redeliver, instead of carrying `undefined` onward.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`Invariant broken: no ${what}`);
  return value;
}

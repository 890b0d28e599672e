/**
 * The one retry policy of the service's writes: a write that lost a race with a concurrent change
 * (a transaction conflict, a version condition, items DynamoDB left unprocessed) is tried again after
 * a short, growing, jittered pause, at most `WRITE_ATTEMPTS` times in all. Twelve attempts with these
 * pauses (about 1 s in all) let 200 concurrent writers of one item all succeed on DynamoDB Local.
 */
export const WRITE_ATTEMPTS = 12;

export const pauseBefore = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 25));

/** Answered by an attempt that should be made again. */
export const AGAIN: unique symbol = Symbol('again');

/**
 * Runs `attempt(1)`, `attempt(2)`, … until one answers something other than `AGAIN`, pausing between
 * them; after the last attempt, throws `exhausted()` (a 409 in the API, an error a queue redelivers).
 */
export async function retrying<T>(
  attempt: (n: number) => Promise<T | typeof AGAIN>,
  exhausted: () => Error,
): Promise<T> {
  for (let n = 1; n <= WRITE_ATTEMPTS; n++) {
    if (n > 1) await pauseBefore(n - 1);
    const outcome = await attempt(n);
    if (outcome !== AGAIN) return outcome;
  }
  throw exhausted();
}

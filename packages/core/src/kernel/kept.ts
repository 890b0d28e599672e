/**
 * Per-instance copies of small settings read on hot paths (a project's SLA setup, its alert rules),
 * each kept `ttlMs`: a write elsewhere reaches other instances within that time, and one here forgets
 * its copy at once. Concurrent misses of one key share one read.
 */
export function keptCopies<T>(ttlMs: number, read: (key: string) => Promise<T>, max = 1_000) {
  const kept = new Map<string, { value: T; at: number }>();
  const reading = new Map<string, Promise<T>>();
  /** Reads now (the API's own answers never come from a copy), and keeps what it read. */
  const fresh = async (key: string) => {
    const value = await read(key);
    if (kept.size >= max) kept.delete(kept.keys().next().value ?? '');
    kept.set(key, { value, at: Date.now() });
    return value;
  };
  return {
    fresh,
    get(key: string): Promise<T> {
      const hit = kept.get(key);
      if (hit && Date.now() - hit.at < ttlMs) return Promise.resolve(hit.value);
      const pending = reading.get(key) ?? fresh(key).finally(() => reading.delete(key));
      reading.set(key, pending);
      return pending;
    },
    forget: (key: string) => void kept.delete(key),
  };
}

import { ttlIn } from '../kernel/db/client.js';
import { RateWindow } from './entities.js';

export interface RateState {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  reset: number;
  exceeded: boolean;
}

/**
 * How many Lambda instances may serve one key at once before the overshoot bound below is exceeded,
 * and the share of the remaining headroom each may spend between flushes: an instance counts up to
 * floor((limit − knownTotal) / (SHARE × ASSUMED_INSTANCES)) requests locally before it adds them to the
 * shared counter. Worst case, each of N instances spends one such budget computed from a total of 0
 * after the key has reached its limit: at most N × floor(limit / 100) requests over the limit
 * (10% with 10 instances). See docs/decisions.md.
 */
export const ASSUMED_INSTANCES = 10;
export const SHARE = 10;

interface KeyWindow {
  minute: number;
  /** The shared counter's value as last returned to this instance. */
  shared: number;
  /** Counts on their way to the shared counter. */
  pending: number;
  /** Counts of this instance not yet added to the shared counter. */
  unflushed: number;
}

const MAX_KEYS = 10_000;
const windows = new Map<string, KeyWindow>();

function windowOf(keyId: string, minute: number): KeyWindow {
  let w = windows.get(keyId);
  // A new minute starts afresh: the old window's unflushed counts belong to a window nobody reads again.
  if (!w || w.minute !== minute) {
    if (!w && windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value ?? keyId);
    w = { minute, shared: 0, pending: 0, unflushed: 0 };
    windows.set(keyId, w);
  }
  return w;
}

/**
 * Fixed one-minute windows per key, shared by every Lambda instance through one DynamoDB counter.
 * While the key is well under its limit an instance counts locally and adds its counts in one
 * UpdateItem once its budget is spent; near the limit the budget is 0 and every request is added (and
 * judged) by the counter itself. With one instance (the local server) the count is exact: the
 * headers show limit − (shared + local), and the request past the limit is refused. Requests over the
 * limit are counted too; they are refused either way.
 */
export async function countRequest(keyId: string, limit: number, now = Date.now()): Promise<RateState> {
  const minute = Math.floor(now / 60_000);
  const reset = (minute + 1) * 60;
  const w = windowOf(keyId, minute);
  const known = w.shared + w.pending;
  const budget = Math.floor((limit - known) / (SHARE * ASSUMED_INSTANCES));
  if (w.unflushed + 1 <= budget) {
    w.unflushed += 1;
    return { limit, remaining: limit - (known + w.unflushed), reset, exceeded: false };
  }
  const amount = w.unflushed + 1;
  w.unflushed = 0;
  w.pending += amount;
  try {
    const { data } = await RateWindow.update({ keyId, window: String(minute) })
      .add({ count: amount })
      .set({ expiresAt: ttlIn(120, now) })
      .go({ response: 'updated_new' });
    const count = data.count ?? amount;
    // Concurrent flushes of this instance may return out of order: the larger total is the later one.
    w.shared = Math.max(w.shared, count);
    return { limit, remaining: Math.max(0, limit - (count + w.unflushed)), reset, exceeded: count > limit };
  } catch (error) {
    w.unflushed += amount - 1; // the requests already served still count; this one fails
    throw error;
  } finally {
    w.pending -= amount;
  }
}

export const rateHeaders = (state: RateState): Record<string, string> => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
  'X-RateLimit-Reset': String(state.reset),
});

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
 * Share of the remaining headroom an instance may spend between flushes: an instance that has read
 * the shared count this minute counts up to floor((limit − knownTotal) / LOCAL_SHARE) requests locally
 * before it adds them to the shared counter (docs/decisions.md, Rate limit).
 */
export const LOCAL_SHARE = 100;

interface KeyWindow {
  minute: number;
  /** The shared counter's value as last returned to this instance; undefined until it was read this minute. */
  shared?: number;
  /** Counts on their way to the shared counter. */
  pending: number;
  /** Counts of this instance not yet added to the shared counter. */
  unflushed: number;
}

const MAX_KEYS = 10_000;

/** Adds `amount` to a key's shared counter of one window and answers the new total; the counter outlives its window by as long again. */
export type AddToWindow = (
  keyId: string,
  window: number,
  amount: number,
  now: number,
  windowSeconds?: number,
) => Promise<number>;

/** Also the per-second window of a webhook endpoint's delivery rate (areas/webhooks/deliver.ts). */
export const addToWindow: AddToWindow = async (keyId, window, amount, now, windowSeconds = 60) => {
  const { data } = await RateWindow.update({ keyId, window: String(window) })
    .add({ count: amount })
    .set({ expiresAt: ttlIn(2 * windowSeconds, now) })
    .go({ response: 'updated_new' });
  return data.count ?? amount;
};

/**
 * Fixed windows per key (a minute unless given), shared by every Lambda instance through one DynamoDB counter. An
 * instance's first request of a key in a minute is always added to the counter (so a burst over many
 * fresh instances is counted request by request); afterwards, while the known total leaves room, the
 * instance counts locally and adds its counts in one UpdateItem once its budget is spent. Near the
 * limit, and for limits up to LOCAL_SHARE, the budget is 0 and every request is added (and judged) by
 * the counter itself. Requests over the limit are counted too; they are refused either way.
 * One counter per Lambda instance (module state); tests make many to stand for many instances.
 */
export function rateCounter(add: AddToWindow = addToWindow, windowSeconds = 60) {
  const windows = new Map<string, KeyWindow>();

  const windowOf = (keyId: string, minute: number): KeyWindow => {
    let w = windows.get(keyId);
    // A new minute starts afresh: the old window's unflushed counts belong to a window nobody reads again.
    if (!w || w.minute !== minute) {
      if (!w && windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value ?? keyId);
      w = { minute, pending: 0, unflushed: 0 };
      windows.set(keyId, w);
    }
    return w;
  };

  return async function countRequest(keyId: string, limit: number, now = Date.now()): Promise<RateState> {
    const minute = Math.floor(now / (windowSeconds * 1000));
    const reset = (minute + 1) * windowSeconds;
    const w = windowOf(keyId, minute);
    // No local budget before this instance has seen the shared total of this minute.
    const known = (w.shared ?? limit) + w.pending;
    const budget = Math.floor((limit - known) / LOCAL_SHARE);
    if (w.unflushed + 1 <= budget) {
      w.unflushed += 1;
      return { limit, remaining: limit - (known + w.unflushed), reset, exceeded: false };
    }
    const amount = w.unflushed + 1;
    w.unflushed = 0;
    w.pending += amount;
    try {
      const count = await add(keyId, minute, amount, now, windowSeconds);
      // Concurrent flushes of this instance may return out of order: the larger total is the later one.
      w.shared = Math.max(w.shared ?? 0, count);
      return { limit, remaining: Math.max(0, limit - (count + w.unflushed)), reset, exceeded: count > limit };
    } catch (error) {
      w.unflushed += amount - 1; // the requests already served still count; this one fails
      throw error;
    } finally {
      w.pending -= amount;
    }
  };
}

/** This instance's counter. */
export const countRequest = rateCounter();
/** Hourly windows: limits on what abuse would repeat all day (the help center's request form). */
export const countHourly = rateCounter(addToWindow, 3_600);

export const rateHeaders = (state: RateState): Record<string, string> => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
  'X-RateLimit-Reset': String(state.reset),
});

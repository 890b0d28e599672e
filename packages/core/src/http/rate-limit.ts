import { RateWindow } from '../auth/entities.js';
import { ttlIn } from '../db/client.js';

export interface RateState {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  reset: number;
  exceeded: boolean;
}

/**
 * Fixed one-minute windows counted in DynamoDB with one atomic UpdateItem, so the limit holds across
 * every Lambda instance. Requests over the limit are counted too; they are refused either way.
 */
export async function countRequest(keyId: string, limit: number, now = Date.now()): Promise<RateState> {
  const minute = Math.floor(now / 60_000);
  const reset = (minute + 1) * 60;
  const { data } = await RateWindow.update({ keyId, window: String(minute) })
    .add({ count: 1 })
    .set({ expiresAt: ttlIn(120, now) })
    .go({ response: 'updated_new' });
  const count = data.count ?? 1;
  return { limit, remaining: Math.max(0, limit - count), reset, exceeded: count > limit };
}

export const rateHeaders = (state: RateState): Record<string, string> => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
  'X-RateLimit-Reset': String(state.reset),
});

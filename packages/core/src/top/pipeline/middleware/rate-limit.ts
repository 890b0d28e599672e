import type { OnKeyRead } from '../../../identity/principal.js';
import { countRequest } from '../../../identity/rate-limit.js';
import { problem } from '../../../kernel/errors/problem.js';
import type { Middleware, PipelineState } from './state.js';

/**
 * Authentication's hook: when it reads the key from the table (a new instance, or the cached key
 * expired), the count starts at once, beside the account read, instead of a round trip after it.
 */
export const countOnKeyRead =
  (internal: PipelineState): OnKeyRead =>
  (key) => {
    const counting = countRequest(key.keyId, key.rateLimit);
    // Awaited by rateLimit(); a key refused after this (its account gone) leaves it unawaited.
    counting.catch(() => undefined);
    internal.counting = counting;
  };

/**
 * 4. Rate limit, per key, right after authentication, so every request of a valid key counts and
 * carries the X-RateLimit headers: refused ones (scope, IP, project) and unknown routes included.
 */
export const rateLimit = (): Middleware => ({
  before: async ({ internal }) => {
    const { principal } = internal;
    if (!principal) return;
    internal.rate = await (internal.counting ?? countRequest(principal.keyId, principal.rateLimit));
    if (internal.rate.exceeded) {
      const retryAfter = Math.max(1, internal.rate.reset - Math.floor(Date.now() / 1000));
      throw problem('rate_limit.exceeded', { limit: principal.rateLimit, retryAfter });
    }
  },
});

import { countRequest } from '../../../identity/rate-limit.js';
import { problem } from '../../../kernel/errors/problem.js';
import type { Middleware } from './state.js';

/**
 * 4. Rate limit, per key, right after authentication, so every request of a valid key counts and
 * carries the X-RateLimit headers: refused ones (scope, IP, project) and unknown routes included.
 */
export const rateLimit = (): Middleware => ({
  before: async ({ internal }) => {
    const { principal } = internal;
    if (!principal) return;
    internal.rate = await countRequest(principal.keyId, principal.rateLimit);
    if (internal.rate.exceeded) {
      const retryAfter = Math.max(1, internal.rate.reset - Math.floor(Date.now() / 1000));
      throw problem('rate_limit.exceeded', { limit: principal.rateLimit, retryAfter });
    }
  },
});

import { resolvePrincipal } from '../../../identity/principal.js';
import { errors } from '../../../kernel/errors/common.js';
import { problem } from '../../../kernel/errors/problem.js';
import { countOnKeyRead } from './rate-limit.js';
import { type Event, headerOf, type Middleware } from './state.js';

const bearerOf = (event: Event) => {
  const header = headerOf(event, 'authorization');
  return header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
};

/**
 * 3. The API key: `Authorization: Bearer …`, required on every keyed route. On an unknown route it is
 * optional (the answer is 404/405 either way) and only a valid one is kept, to be counted.
 */
export const authenticate = (): Middleware => ({
  before: async ({ event, internal }) => {
    if (internal.route?.tenancy === 'public') return;
    const secret = bearerOf(event);
    const onKeyRead = countOnKeyRead(internal);
    if (internal.unknown) {
      internal.principal = (secret && (await resolvePrincipal(secret, Date.now(), onKeyRead))) || undefined;
      return;
    }
    if (!secret) throw errors.unauthorized();
    const principal = await resolvePrincipal(secret, Date.now(), onKeyRead);
    if (!principal) throw problem('auth.unauthorized', { revoked: true });
    internal.principal = principal;
  },
});

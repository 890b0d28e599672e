import { problem } from '../../../kernel/errors/problem.js';
import type { Middleware } from './state.js';

/** 6. IP allowlist, then scope: both answer 403 `auth.forbidden`. */
export const authorize = (): Middleware => ({
  before: async ({ event, internal }) => {
    const { principal, route } = internal;
    if (!principal) return;
    const ip = event.requestContext.http.sourceIp;
    // The address parser loads only for keys that have an allowlist.
    if (
      principal.allowIps.length > 0 &&
      !(await import('../../../identity/ip-allowlist.js')).ipAllowed(ip, principal.allowIps)
    )
      throw problem('auth.forbidden', { ip });
    const scope = route?.scope;
    if (scope && principal.scopes.length > 0 && !principal.scopes.includes(scope))
      throw problem('auth.forbidden', { scope });
    if (route?.fullAccess && principal.scopes.length > 0) throw problem('auth.forbidden', { fullAccess: true });
  },
});

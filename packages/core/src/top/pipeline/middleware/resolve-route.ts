import type { RouteDef, RouteImpl } from '../../../kernel/api/route.js';
import { addLogContext } from '../../../kernel/logger.js';
import type { createMatcher } from '../match.js';
import type { Middleware } from './state.js';

export type BoundRoutes = Map<string, { route: RouteDef; impl: RouteImpl<RouteDef> }>;

/**
 * 2. The route, by API Gateway's route key. On `$default` (an unknown path, or a known path with
 * another method) the answer is decided here but given after the key is authenticated and counted
 * (step 5), so an unknown route costs a valid key like any request.
 */
export const resolveRoute = (routes: BoundRoutes, allRoutes: () => Promise<RouteDef[]>): Middleware => {
  let matcher: Promise<ReturnType<typeof createMatcher>> | undefined;
  return {
    before: async ({ event, internal }) => {
      const bound = routes.get(event.routeKey);
      if (bound) {
        addLogContext({ route: bound.route.id });
        internal.route = bound.route;
        internal.impl = bound.impl;
        return;
      }
      // Only unknown routes need the matcher (and, on `$default`, the whole route table): loaded on the first.
      const match = await (matcher ??= Promise.all([allRoutes(), import('../match.js')]).then(
        ([all, { createMatcher: create }]) => create(all),
      ));
      const found = match(event.requestContext.http.method, event.rawPath);
      internal.unknown = found?.kind === 'method-not-allowed' ? { allowed: found.allowed } : {};
    },
  };
};

import type { RouteDef, RouteImpl } from '../../../kernel/api/route.js';
import { addLogContext } from '../../../kernel/logger.js';
import type { createMatcher } from '../match.js';
import type { Middleware } from './state.js';

export type BoundRoutes = Map<string, { route: RouteDef; impl: RouteImpl<RouteDef> }>;

type Matcher = ReturnType<typeof createMatcher>;

/**
 * 2. The route, by API Gateway's route key with the request's method: an `ANY /path` route (top/pipeline/
 * match.ts `gatewayRoutes`) names the path and the method tells the operation (HEAD is a GET's). A
 * method the path does not bind (`PATCH /tickets/metrics` is `/tickets/{ticketId}`'s) is matched among
 * the group's own routes. On `$default` (an unknown path) the answer is decided here but given after
 * the key is authenticated and counted (step 5), so an unknown route costs a valid key like any request.
 */
export const resolveRoute = (routes: BoundRoutes, allRoutes: () => Promise<RouteDef[]>): Middleware => {
  let own: Promise<Matcher> | undefined;
  let all: Promise<Matcher> | undefined;
  const matcher = (load: () => Promise<RouteDef[]>) =>
    Promise.all([load(), import('../match.js')]).then(([defs, { createMatcher: create }]) => create(defs));
  return {
    before: async ({ event, internal }) => {
      const method = event.requestContext.http.method;
      const key = event.routeKey.startsWith('ANY ') ? `${method} ${event.routeKey.slice(4)}` : event.routeKey;
      const bound = routes.get(key) ?? (method === 'HEAD' ? routes.get(`GET ${key.slice(5)}`) : undefined);
      if (bound) {
        addLogContext({ route: bound.route.id });
        internal.route = bound.route;
        internal.impl = bound.impl;
        return;
      }
      // Only requests no route key names need a matcher (and, on `$default`, the whole route table): loaded on the first.
      const gateway = event.routeKey !== '$default';
      const match = await (gateway
        ? (own ??= matcher(async () => [...routes.values()].map((r) => r.route)))
        : (all ??= matcher(allRoutes)));
      const found = match(method, event.rawPath);
      const served = found?.kind === 'route' && gateway ? routes.get(found.routeKey) : undefined;
      if (found?.kind === 'route' && served) {
        addLogContext({ route: served.route.id });
        internal.route = served.route;
        internal.impl = served.impl;
        event.pathParameters = found.pathParameters;
        return;
      }
      internal.unknown = found?.kind === 'method-not-allowed' ? { allowed: found.allowed } : {};
    },
  };
};

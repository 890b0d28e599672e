import { fullPath, type Group, type RouteDef, routeKey } from '../../kernel/api/route.js';
import { must } from '../../kernel/must.js';

/** A route's path as the pattern API Gateway matches: `{name}` takes one segment. */
const compile = (path: string) => {
  const names: string[] = [];
  const pattern = path
    .split('/')
    .map((segment) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1] ?? '');
      return '([^/]+)';
    })
    .join('/');
  return { regex: new RegExp(`^${pattern}$`), names };
};

/** The pattern a route's path is matched with. */
export const routePattern = (route: RouteDef) => compile(fullPath(route)).regex;

/** A malformed escape (`%E0`) stays as sent: the parameter's schema then refuses it like any bad id. */
const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const parametersOf = (compiled: ReturnType<typeof compile>, match: RegExpExecArray) =>
  Object.fromEntries(compiled.names.map((n, i) => [n, safeDecode(match[i + 1] ?? '')]));

export type MatchResult =
  | { kind: 'route'; route: RouteDef; routeKey: string; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] };

/**
 * Matches a method and raw path against routes: literal segments win over parameters, a path that
 * exists under another method is a 405. Every GET also answers HEAD (as the GET without its body).
 */
export function createMatcher(routes: RouteDef[]) {
  const compiled = routes
    .map((route) => ({ route, ...compile(fullPath(route)) }))
    // More literal segments first, so /email-templates/import beats /email-templates/{key}.
    .sort((a, b) => a.names.length - b.names.length);
  return (method: string, path: string): MatchResult | undefined => {
    const allowed: string[] = [];
    for (const c of compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      const get = c.route.method === 'GET';
      if (c.route.method === method || (method === 'HEAD' && get))
        return { kind: 'route', route: c.route, routeKey: routeKey(c.route), pathParameters: parametersOf(c, m) };
      // A literal path and a parameter path both matching (/tickets/metrics, /tickets/{ticketId}) name a method once.
      for (const name of get ? ['GET', 'HEAD'] : [c.route.method]) if (!allowed.includes(name)) allowed.push(name);
    }
    return allowed.length ? { kind: 'method-not-allowed', allowed } : undefined;
  };
}

/** One API Gateway route: `ANY` for a path (its group's Lambda tells the methods apart), or one method. */
export interface GatewayRoute {
  key: string;
  method: RouteDef['method'] | 'ANY';
  path: string;
  group: Group;
}

/**
 * The API Gateway routes of a route table: one `ANY` route per path, so HEAD (and a 405 with `Allow`)
 * is answered by the path's own Lambda, with half the routes of one per method. A literal path that a
 * parameter path of another group also matches (`POST /emails/preview` beside `/emails/{id}`) keeps one
 * route per method instead: API Gateway takes the most specific path among the routes that accept the
 * method, so `GET /emails/preview` still reaches `/emails/{id}`'s Lambda, as a route per method did.
 */
export function gatewayRoutes(routes: readonly RouteDef[]): GatewayRoute[] {
  const byPath = new Map<string, RouteDef[]>();
  for (const route of routes) byPath.set(fullPath(route), [...(byPath.get(fullPath(route)) ?? []), route]);
  const patterns = [...byPath].map(([path, same]) => ({ path, same, ...compile(path) }));
  return patterns.flatMap(({ path, same }): GatewayRoute[] => {
    const group = must(same[0], 'a route of the path').group;
    const mixed = same.some((r) => r.group !== group);
    const shadowed = patterns.some(
      (p) => p.path !== path && p.regex.test(path) && p.same.some((r) => r.group !== group),
    );
    return mixed || shadowed
      ? same.map((r) => ({ key: routeKey(r), method: r.method, path, group: r.group }))
      : [{ key: `ANY ${path}`, method: 'ANY', path, group }];
  });
}

/**
 * Which API Gateway route a request takes, as API Gateway selects it: among the routes that accept the
 * method, the most specific path (fewest parameters), a route of that method before `ANY`. Undefined is
 * the `$default` route. Used by the local server, so its events carry what API Gateway's would.
 */
export function createGatewaySelector(routes: readonly GatewayRoute[]) {
  const compiled = routes
    .map((route) => ({ route, ...compile(route.path) }))
    .sort(
      (a, b) => a.names.length - b.names.length || Number(a.route.method === 'ANY') - Number(b.route.method === 'ANY'),
    );
  return (method: string, path: string) => {
    for (const c of compiled) {
      if (c.route.method !== 'ANY' && c.route.method !== method) continue;
      const m = c.regex.exec(path);
      if (m) return { route: c.route, pathParameters: parametersOf(c, m) };
    }
    return undefined;
  };
}

import { answersHead, fullPath, headRouteKey, type RouteDef, routeKey } from '../../kernel/api/route.js';

interface Compiled {
  route: RouteDef;
  regex: RegExp;
  names: string[];
}

const compile = (route: RouteDef): Compiled => {
  const names: string[] = [];
  const pattern = fullPath(route)
    .split('/')
    .map((segment) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1] ?? '');
      return '([^/]+)';
    })
    .join('/');
  return { route, regex: new RegExp(`^${pattern}$`), names };
};

/** The pattern a route's path is matched with. */
export const routePattern = (route: RouteDef) => compile(route).regex;

export type MatchResult =
  | { kind: 'route'; route: RouteDef; routeKey: string; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] };

/** A malformed escape (`%E0`) stays as sent: the parameter's schema then refuses it like any bad id. */
const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * Matches a method and raw path against the route table the way API Gateway does: literal segments
 * win over parameters, a path that exists under another method is a 405. A page's GET route also takes
 * HEAD, under its own route key (`answersHead`).
 */
export function createMatcher(routes: RouteDef[]) {
  const compiled = routes
    .map(compile)
    // More literal segments first, so /email-templates/import beats /email-templates/{key}.
    .sort((a, b) => a.names.length - b.names.length);
  return (method: string, path: string): MatchResult | undefined => {
    const allowed: string[] = [];
    for (const c of compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      const pathParameters = Object.fromEntries(c.names.map((n, i) => [n, safeDecode(m[i + 1] ?? '')]));
      const head = answersHead(c.route);
      if (c.route.method === method)
        return { kind: 'route', route: c.route, routeKey: routeKey(c.route), pathParameters };
      if (method === 'HEAD' && head)
        return { kind: 'route', route: c.route, routeKey: headRouteKey(c.route), pathParameters };
      // A literal path and a parameter path both matching (/tickets/metrics, /tickets/{ticketId}) name a method once.
      for (const m of head ? [c.route.method, 'HEAD'] : [c.route.method]) if (!allowed.includes(m)) allowed.push(m);
    }
    return allowed.length ? { kind: 'method-not-allowed', allowed } : undefined;
  };
}

import { PROBLEMS, type ProblemCode } from '../errors/catalog.js';
import type { RouteDef } from './route.js';

/**
 * Every problem an operation can answer: the pipeline's, from what the route declares (a key, a
 * project, path ids, input, a plan gate, a write), plus the domain problems it lists in `problems`.
 */
export function routeProblems(route: RouteDef): ProblemCode[] {
  // Any operation may meet a dependency that throttles or fails (503) or an unexpected error (500).
  const codes = new Set<ProblemCode>(['service.unavailable', 'internal']);
  const add = (...more: ProblemCode[]) => {
    for (const code of more) codes.add(code);
  };
  if (route.tenancy !== 'public') {
    // Every keyed request: the key, its rate limit, its IP allowlist and scope, the environment it names.
    add('auth.unauthorized', 'rate_limit.exceeded', 'auth.forbidden', 'environment.forbidden', 'validation.failed');
    // Writes retry concurrent changes to the same record a few times, then answer 409.
    if (route.method !== 'GET') add('conflict');
  }
  if (route.tenancy === 'project') add('project.required', 'project.forbidden');
  if (route.accountWrite) add('auth.account_key_required');
  if (route.plan) add('plan.upgrade_required');
  if (route.params) add('not_found');
  // Input to check, or a JSON operation without a body, which refuses one sent (pipeline/middleware/validate.ts).
  if (route.query || route.body || route.produces === undefined) add('validation.failed');
  add(...(route.problems ?? []));
  return [...codes];
}

/** The statuses an operation can answer besides 200, each with its problem codes in catalog order. */
export function problemsByStatus(route: RouteDef): Map<number, ProblemCode[]> {
  const codes = new Set(routeProblems(route));
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of Object.keys(PROBLEMS) as ProblemCode[]) {
    if (!codes.has(code)) continue;
    const status = PROBLEMS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

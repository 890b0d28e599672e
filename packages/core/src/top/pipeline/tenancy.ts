import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { AccountContext, Environment, Principal, TenantContext } from '../../kernel/tenant.js';

const choices = (principal: Principal) => principal.projects.map(({ id, slug, name }) => ({ id, slug, name }));

interface Named {
  value: string;
  /** Where the request named it: the Service-* header or the query parameter. */
  from: 'header' | 'query';
}

const fieldOf = (named: Named, header: string, query: string) =>
  named.from === 'header' ? { field: header, in: 'header' as const } : { field: query, in: 'query' as const };

const isEnvironment = (value: string | undefined): value is Environment => value === 'live' || value === 'sandbox';

/**
 * Resolves the request's project and environment from the key and what the request names (the header
 * first, then the query parameter). The service never guesses a project: several reachable and none
 * named is a 400.
 */
export function resolveTenant(
  principal: Principal,
  needsProject: boolean,
  given: { project: Named[]; environment: Named[] },
): AccountContext | TenantContext {
  // Every value the request sent is checked, also one that a header overrides (the header decides).
  for (const named of given.environment) {
    if (!isEnvironment(named.value.trim().toLowerCase())) {
      throw errors.validation([
        { ...fieldOf(named, 'Service-Environment', 'environment'), message: 'Expected live or sandbox' },
      ]);
    }
  }
  for (const named of given.project) {
    // Repeated headers arrive joined by commas (API Gateway does the same); no slug or id has one.
    if (named.value.includes(',')) {
      throw errors.validation([
        { ...fieldOf(named, 'Service-Project', 'project'), message: 'Name exactly one project' },
      ]);
    }
  }
  const requested = given.environment[0]?.value.trim().toLowerCase();
  if (principal.keyEnv === 'sandbox' && requested === 'live') {
    throw problem('environment.forbidden');
  }
  const env = isEnvironment(requested) ? requested : principal.keyEnv;
  const base: AccountContext = {
    accountId: principal.accountId,
    plan: principal.plan,
    allowances: principal.allowances,
    env,
    keyId: principal.keyId,
  };
  if (!needsProject) return base;

  // Each project named (the header's and the query's) must be one the key reaches; the first decides.
  const named = given.project.map(({ value }) => value.trim()).filter(Boolean);
  const projects = named.map((wanted) => {
    // An id in any case (UUIDs are case-insensitive); slugs are lower case by their pattern.
    const project = principal.projects.find((p) => p.id === wanted.toLowerCase() || p.slug === wanted);
    if (!project) throw problem('project.forbidden', { wanted, projects: choices(principal) });
    return project;
  });
  const [project] = projects;
  if (project) return { ...base, projectId: project.id, projectSlug: project.slug, project };
  const [only, ...others] = principal.projects;
  if (only && others.length === 0) {
    const project = only;
    return { ...base, projectId: project.id, projectSlug: project.slug, project };
  }
  if (principal.projects.length === 0) {
    throw problem('project.forbidden', {});
  }
  throw problem('project.required', { projects: choices(principal) });
}

/**
 * A write that changes every project of the account (account-wide templates, which every project's
 * live mail renders): only a live key that reaches every project, acting on live, may make it. A
 * sandbox key, a project-restricted key or a sandbox request would otherwise reach live mail.
 */
export function requireAccountWriter(principal: Principal, ctx: AccountContext) {
  if (principal.keyEnv !== 'live' || ctx.env !== 'live' || !principal.reachesAllProjects) {
    throw problem('auth.account_key_required');
  }
}

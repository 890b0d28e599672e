import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { AccountContext, Environment, Principal, TenantContext } from '../../kernel/tenant.js';

const choices = (principal: Principal) => principal.projects.map(({ id, slug, name }) => ({ id, slug, name }));

/**
 * Resolves the request's project and environment from the key and what the request names.
 * The service never guesses a project: several reachable and none named is a 400.
 */
interface Named {
  value: string;
  /** Where the request named it: the Service-* header or the query parameter. */
  from: 'header' | 'query';
}

const fieldOf = (named: Named, header: string, query: string) =>
  named.from === 'header' ? { field: header, in: 'header' as const } : { field: query, in: 'query' as const };

const isEnvironment = (value: string | undefined): value is Environment => value === 'live' || value === 'sandbox';

export function resolveTenant(
  principal: Principal,
  needsProject: boolean,
  named: { project?: Named; environment?: Named },
): AccountContext | TenantContext {
  const requested = named.environment?.value.trim().toLowerCase();
  if (named.environment && !isEnvironment(requested)) {
    throw errors.validation([
      { ...fieldOf(named.environment, 'Service-Environment', 'environment'), message: 'Expected live or sandbox' },
    ]);
  }
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

  const wanted = named.project?.value.trim();
  if (named.project && wanted?.includes(',')) {
    // Repeated headers arrive joined by commas (API Gateway does the same); no slug or id has one.
    throw errors.validation([
      { ...fieldOf(named.project, 'Service-Project', 'project'), message: 'Name exactly one project' },
    ]);
  }
  if (wanted) {
    const project = principal.projects.find((p) => p.id === wanted || p.slug === wanted);
    if (!project) {
      throw problem('project.forbidden', { wanted, projects: choices(principal) });
    }
    return { ...base, projectId: project.id, projectSlug: project.slug, project };
  }
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

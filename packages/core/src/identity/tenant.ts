import type { EntityItem } from 'electrodb';
import type { Environment, ProjectRef, TenantContext } from '../kernel/tenant.js';
import { loadTenant } from './accounts.js';
import type { Account } from './entities.js';
import { Project } from './entities.js';
import { allowancesFor } from './plans.js';

type ProjectItem = EntityItem<typeof Project>;

/** A project record as the calling code sees it. */
export const projectRefOf = (project: ProjectItem): ProjectRef => ({
  id: project.projectId,
  slug: project.slug,
  name: project.name,
  ...(project.senderEmail ? { senderEmail: project.senderEmail } : {}),
  ...(project.portal ? { portal: project.portal } : {}),
});

/** The context the API's pipeline builds for a key, for callers without one (console sessions, inbound mail). */
export function tenantContextOf(
  account: EntityItem<typeof Account>,
  project: ProjectItem,
  env: Environment,
): TenantContext {
  const ref = projectRefOf(project);
  return {
    accountId: account.accountId,
    plan: account.plan,
    allowances: allowancesFor(account.plan, account.limits),
    env,
    projectId: ref.id,
    projectSlug: ref.slug,
    project: ref,
  };
}

/** The project's tenant context by project id alone (one index Query, then the account's collection); undefined when unknown. */
export async function tenantOfProject(projectId: string, env: Environment): Promise<TenantContext | undefined> {
  const { data } = await Project.query.byId({ projectId }).go({ limit: 1 });
  const found = data[0];
  if (!found) return undefined;
  const { account, projects } = await loadTenant(found.accountId);
  const project = projects.find((p) => p.projectId === projectId);
  return account && project ? tenantContextOf(account, project, env) : undefined;
}

import { accountRoutes } from '@helpdesk/core/areas/account/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  projects: () => import('@helpdesk/core/areas/account/projects'),
  accounts: () => import('@helpdesk/core/identity/accounts'),
  portal: () => import('@helpdesk/core/areas/portal/settings'),
});

/** Account routes; also API Gateway's `$default` route, which answers 404 or 405 for unknown routes. */
export const handler = createGroupHandler(
  accountRoutes,
  {
    listProjects: async ({ principal }) => (await use.projects()).listProjects(principal),
    updateProject: async ({ principal, params, body }) =>
      (await use.portal()).updateProject(principal, params.projectId, body),
    listMembers: async ({ ctx }) => ({ members: await (await use.accounts()).listMembers(ctx.accountId) }),
  },
  { allRoutes: async () => (await import('@helpdesk/core/top/routes/table')).allRoutes },
);

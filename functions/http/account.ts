import { listProjects } from '@helpdesk/core/account/projects';
import { listMembers } from '@helpdesk/core/auth/accounts';
import { accountRoutes } from '@helpdesk/core/account/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { allRoutes } from '@helpdesk/core/routes';

/** Account routes; also API Gateway's `$default` route, which answers 404 or 405 for unknown routes. */
export const handler = createGroupHandler(
  accountRoutes,
  {
    listProjects: async ({ principal }) => listProjects(principal),
    listMembers: async ({ ctx }) => ({ members: await listMembers(ctx.accountId) }),
  },
  { allRoutes },
);

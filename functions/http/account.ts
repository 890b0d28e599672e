import { accountRoutes } from '@helpdesk/core/account/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const projects = onFirstCall(() => import('@helpdesk/core/account/projects'));
const accounts = onFirstCall(() => import('@helpdesk/core/auth/accounts'));

/** Account routes; also API Gateway's `$default` route, which answers 404 or 405 for unknown routes. */
export const handler = createGroupHandler(
  accountRoutes,
  {
    listProjects: async ({ principal }) => (await projects()).listProjects(principal),
    listMembers: async ({ ctx }) => ({ members: await (await accounts()).listMembers(ctx.accountId) }),
  },
  { allRoutes: async () => (await import('@helpdesk/core/routes')).allRoutes },
);

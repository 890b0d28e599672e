import { accountRoutes } from './account/routes.js';
import { articleRoutes } from './articles/routes.js';
import { consoleRoutes } from './console/routes.js';
import { customerRoutes } from './customers/routes.js';
import { emailRoutes } from './emails/routes.js';
import { publicTicketRoutes } from './conversations/routes.js';
import { feedbackRoutes } from './feedback/routes.js';
import { logRoutes } from './logs/routes.js';
import { docsRoutes, referencePageRoutes } from './openapi/routes.js';
import { templateRoutes } from './templates/routes.js';
import { ticketRoutes } from './tickets/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { routeKey, type RouteDef } from './http/route.js';

/**
 * The route table: every route of the API, once. API Gateway (infra/), the local server and the
 * OpenAPI document are all built from this list.
 */
export const allRoutes: RouteDef[] = [
  accountRoutes,
  ticketRoutes,
  emailRoutes,
  templateRoutes,
  articleRoutes,
  logRoutes,
  customerRoutes,
  feedbackRoutes,
  publicTicketRoutes,
  webhookRoutes,
  docsRoutes,
  referencePageRoutes,
  consoleRoutes,
].flatMap((group) => Object.values(group) as RouteDef[]);

const seen = new Set<string>();
for (const route of allRoutes) {
  const key = routeKey(route);
  if (seen.has(key)) throw new Error(`Route ${key} is defined twice`);
  seen.add(key);
}

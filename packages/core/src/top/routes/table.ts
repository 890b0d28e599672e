import { accountRoutes } from '../../areas/account/routes.js';
import { articleRoutes } from '../../areas/articles/routes.js';
import { publicTicketRoutes } from '../../areas/conversations/routes.js';
import { customerRoutes } from '../../areas/customer-profile/routes.js';
import { emailRoutes } from '../../areas/emails/routes.js';
import { feedbackRoutes } from '../../areas/feedback/routes.js';
import { logRoutes } from '../../areas/logs/routes.js';
import { portalRoutes } from '../../areas/portal/routes.js';
import { slaRoutes } from '../../areas/sla/routes.js';
import { templateRoutes } from '../../areas/templates/routes.js';
import { ticketFieldRoutes } from '../../areas/ticket-fields/routes.js';
import { ticketRoutes } from '../../areas/tickets/routes.js';
import { webhookRoutes } from '../../areas/webhooks/routes.js';
import { type RouteDef, routeKey } from '../../kernel/api/route.js';
import { consoleRoutes } from '../console/routes.js';
import { docsRoutes, referencePageRoutes } from './docs.js';

/**
 * The route table: every route of the API, once. API Gateway (infra/), the local server and the
 * OpenAPI document are all built from this list.
 */
export const allRoutes: RouteDef[] = [
  accountRoutes,
  ticketRoutes,
  ticketFieldRoutes,
  slaRoutes,
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
  portalRoutes,
].flatMap((group) => Object.values(group) as RouteDef[]);

const seen = new Set<string>();
for (const route of allRoutes) {
  const key = routeKey(route);
  if (seen.has(key)) throw new Error(`Route ${key} is defined twice`);
  seen.add(key);
}

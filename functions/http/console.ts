import { routeModules } from '@helpdesk/core/kernel/api/route';
import { consoleRoutes } from '@helpdesk/core/top/console/routes';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each section loads with its first page, so a cold start loads only the pipeline (docs/architecture.md, One route table).
const use = routeModules({
  home: () => import('@helpdesk/core/top/console/home'),
  signIn: () => import('@helpdesk/core/top/console/sign-in-pages'),
  keys: () => import('@helpdesk/core/top/console/keys'),
  emails: () => import('@helpdesk/core/top/console/emails'),
  webhooks: () => import('@helpdesk/core/top/console/webhooks'),
  issues: () => import('@helpdesk/core/top/console/issues'),
  tickets: () => import('@helpdesk/core/top/console/tickets'),
  metrics: () => import('@helpdesk/core/top/console/metrics'),
  directory: () => import('@helpdesk/core/top/console/directory'),
});

/** The console: signed-in HTML pages (packages/core/src/top/console/). */
export const handler = createGroupHandler(consoleRoutes, {
  consoleHome: async (req) => (await use.home()).homePage(req),
  consoleSignInForm: async (req) => (await use.signIn()).signInForm(req),
  consoleSendSignInLink: async (req) => (await use.signIn()).sendSignInLink(req),
  consoleConfirmSignIn: async (req) => (await use.signIn()).confirmSignIn(req),
  consoleFinishSignIn: async (req) => (await use.signIn()).finishSignIn(req),
  consoleSignOut: async (req) => (await use.signIn()).signOut(req),
  consoleSwitch: async (req) => (await use.home()).switchTenant(req),
  consoleKeys: async (req) => (await use.keys()).keysList(req),
  consoleCreateKey: async (req) => (await use.keys()).keysCreate(req),
  consoleRevokeKey: async (req) => (await use.keys()).keysRevoke(req),
  consoleEmails: async (req) => (await use.emails()).emailsList(req),
  consoleEmail: async (req) => (await use.emails()).emailDetail(req),
  consoleWebhooks: async (req) => (await use.webhooks()).webhooksList(req),
  consoleWebhook: async (req) => (await use.webhooks()).webhookDetail(req),
  consoleWebhookTest: async (req) => (await use.webhooks()).webhookTest(req),
  consoleWebhookRotate: async (req) => (await use.webhooks()).webhookRotate(req),
  consoleWebhookRecover: async (req) => (await use.webhooks()).webhookRecover(req),
  consoleIssues: async (req) => (await use.issues()).issuesList(req),
  consoleIssue: async (req) => (await use.issues()).issueDetail(req),
  consoleIssueStatus: async (req) => (await use.issues()).issueStatus(req),
  consoleIssueSnooze: async (req) => (await use.issues()).issueSnooze(req),
  consoleAlerts: async (req) => (await use.issues()).alertsPage(req),
  consoleTickets: async (req) => (await use.tickets()).ticketsList(req),
  consoleTicket: async (req) => (await use.tickets()).ticketDetail(req),
  consoleMetrics: async (req) => (await use.metrics()).metricsPage(req),
  consoleTicketMessage: async (req) => (await use.tickets()).ticketReply(req),
  consoleTicketUpdate: async (req) => (await use.tickets()).ticketUpdate(req),
  consoleTicketMerge: async (req) => (await use.tickets()).ticketMerge(req),
  consoleTicketUnmerge: async (req) => (await use.tickets()).ticketUnmerge(req),
  consoleCustomers: async (req) => (await use.directory()).customersList(req),
  consoleArticles: async (req) => (await use.directory()).articlesList(req),
});

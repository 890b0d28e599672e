import { consoleRoutes } from '@helpdesk/core/console/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';

// Each section loads with its first page, so a cold start loads only the pipeline (docs/architecture.md, One route table).
const home = onFirstCall(() => import('@helpdesk/core/console/home'));
const signIn = onFirstCall(() => import('@helpdesk/core/console/sign-in-pages'));
const keys = onFirstCall(() => import('@helpdesk/core/console/keys'));
const emails = onFirstCall(() => import('@helpdesk/core/console/emails'));
const webhooks = onFirstCall(() => import('@helpdesk/core/console/webhooks'));
const issues = onFirstCall(() => import('@helpdesk/core/console/issues'));
const tickets = onFirstCall(() => import('@helpdesk/core/console/tickets'));
const directory = onFirstCall(() => import('@helpdesk/core/console/directory'));

/** The console: signed-in HTML pages (packages/core/src/console/). */
export const handler = createGroupHandler(consoleRoutes, {
  consoleHome: async (req) => (await home()).homePage(req),
  consoleSignInForm: async (req) => (await signIn()).signInForm(req),
  consoleSendSignInLink: async (req) => (await signIn()).sendSignInLink(req),
  consoleConfirmSignIn: async (req) => (await signIn()).confirmSignIn(req),
  consoleFinishSignIn: async (req) => (await signIn()).finishSignIn(req),
  consoleSignOut: async (req) => (await signIn()).signOut(req),
  consoleSwitch: async (req) => (await home()).switchTenant(req),
  consoleKeys: async (req) => (await keys()).keysList(req),
  consoleCreateKey: async (req) => (await keys()).keysCreate(req),
  consoleRevokeKey: async (req) => (await keys()).keysRevoke(req),
  consoleEmails: async (req) => (await emails()).emailsList(req),
  consoleEmail: async (req) => (await emails()).emailDetail(req),
  consoleWebhooks: async (req) => (await webhooks()).webhooksList(req),
  consoleWebhook: async (req) => (await webhooks()).webhookDetail(req),
  consoleWebhookTest: async (req) => (await webhooks()).webhookTest(req),
  consoleWebhookRotate: async (req) => (await webhooks()).webhookRotate(req),
  consoleIssues: async (req) => (await issues()).issuesList(req),
  consoleIssue: async (req) => (await issues()).issueDetail(req),
  consoleIssueStatus: async (req) => (await issues()).issueStatus(req),
  consoleTickets: async (req) => (await tickets()).ticketsList(req),
  consoleTicket: async (req) => (await tickets()).ticketDetail(req),
  consoleTicketMessage: async (req) => (await tickets()).ticketReply(req),
  consoleTicketUpdate: async (req) => (await tickets()).ticketUpdate(req),
  consoleCustomers: async (req) => (await directory()).customersList(req),
  consoleArticles: async (req) => (await directory()).articlesList(req),
});

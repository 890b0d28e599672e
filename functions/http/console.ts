import { homePage, switchTenant } from '@helpdesk/core/console/home';
import { keysCreate, keysList, keysRevoke } from '@helpdesk/core/console/keys';
import { articlesList, customersList } from '@helpdesk/core/console/directory';
import { emailDetail, emailsList } from '@helpdesk/core/console/emails';
import { issueDetail, issuesList, issueStatus } from '@helpdesk/core/console/issues';
import { consoleRoutes } from '@helpdesk/core/console/routes';
import { confirmSignIn, finishSignIn, sendSignInLink, signInForm, signOut } from '@helpdesk/core/console/sign-in-pages';
import { ticketDetail, ticketReply, ticketsList, ticketUpdate } from '@helpdesk/core/console/tickets';
import { webhookDetail, webhookRotate, webhooksList, webhookTest } from '@helpdesk/core/console/webhooks';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';

/** The console: signed-in HTML pages (packages/core/src/console/). */
export const handler = createGroupHandler(consoleRoutes, {
  consoleHome: homePage,
  consoleSignInForm: signInForm,
  consoleSendSignInLink: sendSignInLink,
  consoleConfirmSignIn: confirmSignIn,
  consoleFinishSignIn: finishSignIn,
  consoleSignOut: signOut,
  consoleSwitch: switchTenant,
  consoleKeys: keysList,
  consoleCreateKey: keysCreate,
  consoleRevokeKey: keysRevoke,
  consoleEmails: emailsList,
  consoleEmail: emailDetail,
  consoleWebhooks: webhooksList,
  consoleWebhook: webhookDetail,
  consoleWebhookTest: webhookTest,
  consoleWebhookRotate: webhookRotate,
  consoleIssues: issuesList,
  consoleIssue: issueDetail,
  consoleIssueStatus: issueStatus,
  consoleTickets: ticketsList,
  consoleTicket: ticketDetail,
  consoleTicketMessage: ticketReply,
  consoleTicketUpdate: ticketUpdate,
  consoleCustomers: customersList,
  consoleArticles: articlesList,
});

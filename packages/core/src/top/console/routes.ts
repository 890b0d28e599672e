import * as v from 'valibot';
import { defineRoute } from '../../kernel/api/route.js';

/**
 * The console's pages, at the host root beside /docs. `root` routes stay out of the OpenAPI
 * document: they are HTML for people signed in with a session cookie, not operations for API keys.
 * `public` tenancy because the session (not a key) is checked by console/guard.ts.
 */
const page = { root: true, group: 'console', tenancy: 'public', produces: 'text/html' } as const;
/** Form posts: every field a string; each page checks its own fields (and the CSRF token) and answers HTML. */
const post = { ...page, method: 'POST', bodyType: 'form-or-json', body: v.record(v.string(), v.string()) } as const;
const id = v.pipe(v.string(), v.maxLength(200));

export const consoleRoutes = {
  consoleHome: defineRoute({
    ...page,
    id: 'consoleHome',
    method: 'GET',
    path: '/console',
    summary: 'Console overview',
  }),
  consoleSignInForm: defineRoute({
    ...page,
    id: 'consoleSignInForm',
    method: 'GET',
    path: '/console/sign-in',
    summary: 'Console sign-in form',
  }),
  consoleSendSignInLink: defineRoute({
    ...post,
    id: 'consoleSendSignInLink',
    path: '/console/sign-in',
    summary: 'Email a one-time sign-in link to a member',
  }),
  consoleConfirmSignIn: defineRoute({
    ...page,
    id: 'consoleConfirmSignIn',
    method: 'GET',
    path: '/console/sign-in/{token}',
    params: { token: id },
    summary: 'The emailed link: a confirm button (scanners fetch GETs)',
  }),
  consoleFinishSignIn: defineRoute({
    ...post,
    body: undefined,
    bodyType: undefined,
    id: 'consoleFinishSignIn',
    path: '/console/sign-in/{token}',
    params: { token: id },
    summary: 'Use the sign-in link up and start a session',
  }),
  consoleSignOut: defineRoute({ ...post, id: 'consoleSignOut', path: '/console/sign-out', summary: 'End the session' }),
  consoleSwitch: defineRoute({
    ...post,
    id: 'consoleSwitch',
    path: '/console/switch',
    summary: 'Choose the project and live or sandbox',
  }),
  consoleKeys: defineRoute({
    ...page,
    id: 'consoleKeys',
    method: 'GET',
    path: '/console/keys',
    summary: 'API keys of the account',
  }),
  consoleCreateKey: defineRoute({
    ...post,
    id: 'consoleCreateKey',
    path: '/console/keys',
    summary: 'Create an API key (secret shown once)',
  }),
  consoleRevokeKey: defineRoute({
    ...post,
    id: 'consoleRevokeKey',
    path: '/console/keys/{keyId}/revoke',
    params: { keyId: id },
    summary: 'Revoke an API key',
  }),
  consoleEmails: defineRoute({
    ...page,
    id: 'consoleEmails',
    method: 'GET',
    path: '/console/emails',
    summary: 'Email logs with filters',
  }),
  consoleEmail: defineRoute({
    ...page,
    id: 'consoleEmail',
    method: 'GET',
    path: '/console/emails/{emailId}',
    params: { emailId: id },
    summary: 'One message: timeline, rendered HTML, text',
  }),
  consoleWebhooks: defineRoute({
    ...page,
    id: 'consoleWebhooks',
    method: 'GET',
    path: '/console/webhooks',
    summary: 'Webhook endpoints',
  }),
  consoleWebhook: defineRoute({
    ...page,
    id: 'consoleWebhook',
    method: 'GET',
    path: '/console/webhooks/{webhookId}',
    params: { webhookId: id },
    summary: 'An endpoint and its delivery log',
  }),
  consoleWebhookTest: defineRoute({
    ...post,
    id: 'consoleWebhookTest',
    path: '/console/webhooks/{webhookId}/test',
    params: { webhookId: id },
    summary: 'Send a test delivery',
  }),
  consoleWebhookRotate: defineRoute({
    ...post,
    id: 'consoleWebhookRotate',
    path: '/console/webhooks/{webhookId}/rotate',
    params: { webhookId: id },
    summary: 'Rotate the signing secret (shown once)',
  }),
  consoleWebhookRecover: defineRoute({
    ...post,
    id: 'consoleWebhookRecover',
    path: '/console/webhooks/{webhookId}/recover',
    params: { webhookId: id },
    summary: 'Queue again the deliveries that failed for good since a time',
  }),
  consoleIssues: defineRoute({
    ...page,
    id: 'consoleIssues',
    method: 'GET',
    path: '/console/issues',
    summary: 'Log issues by status and level',
  }),
  consoleIssue: defineRoute({
    ...page,
    id: 'consoleIssue',
    method: 'GET',
    path: '/console/issues/{issueId}',
    params: { issueId: id },
    summary: 'A log issue with its latest events',
  }),
  consoleIssueStatus: defineRoute({
    ...post,
    id: 'consoleIssueStatus',
    path: '/console/issues/{issueId}/status',
    params: { issueId: id },
    summary: "Change a log issue's status",
  }),
  consoleTickets: defineRoute({
    ...page,
    id: 'consoleTickets',
    method: 'GET',
    path: '/console/tickets',
    summary: "Tickets with the API's filters",
  }),
  consoleMetrics: defineRoute({
    ...page,
    id: 'consoleMetrics',
    method: 'GET',
    path: '/console/metrics',
    summary: 'First reply and resolution times and SLA breaches per day, last 30 days',
  }),
  consoleTicket: defineRoute({
    ...page,
    id: 'consoleTicket',
    method: 'GET',
    path: '/console/tickets/{ticketId}',
    params: { ticketId: id },
    summary: 'A ticket and its thread with internal notes',
  }),
  consoleTicketMessage: defineRoute({
    ...post,
    id: 'consoleTicketMessage',
    path: '/console/tickets/{ticketId}/messages',
    params: { ticketId: id },
    summary: 'Reply or add an internal note',
  }),
  consoleTicketUpdate: defineRoute({
    ...post,
    id: 'consoleTicketUpdate',
    path: '/console/tickets/{ticketId}/update',
    params: { ticketId: id },
    summary: 'Change status, priority and assignee',
  }),
  consoleTicketMerge: defineRoute({
    ...post,
    id: 'consoleTicketMerge',
    path: '/console/tickets/{ticketId}/merge',
    params: { ticketId: id },
    summary: 'Merge the ticket into another, named by its number',
  }),
  consoleTicketUnmerge: defineRoute({
    ...post,
    id: 'consoleTicketUnmerge',
    path: '/console/tickets/{ticketId}/unmerge',
    params: { ticketId: id },
    summary: 'Undo the merge of the ticket (within 7 days)',
  }),
  consoleCustomers: defineRoute({
    ...page,
    id: 'consoleCustomers',
    method: 'GET',
    path: '/console/customers',
    summary: 'Customers (read-only)',
  }),
  consoleArticles: defineRoute({
    ...page,
    id: 'consoleArticles',
    method: 'GET',
    path: '/console/articles',
    summary: 'Knowledge base articles (read-only)',
  }),
};

import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { uuid } from '../../kernel/api/schemas.js';
import {
  conversationListQuery,
  conversationListSchema,
  conversationSchema,
  createConversationBody,
  createRequestBody,
  replyBody,
  requestListQuery,
  requestListSchema,
  requestSchema,
  submitRatingBody,
  updateConversationBody,
} from './schemas.js';
import { verifyFeedbackToken } from './token.js';

/** Feedback is a Pro feature: the pipeline refuses lower plans before reading anything. */
const base = {
  group: 'feedback' as const,
  tenancy: 'project' as const,
  tags: ['Feedback'],
  plan: { minimum: 'pro' as const, feature: 'Feedback' },
};
const idParams = { id: uuid };

/** Feedback API (Pro plan or higher; every handler checks the plan). */
export const feedbackApiRoutes = {
  listFeedbackConversations: defineRoute({
    ...base,
    id: 'listFeedbackConversations',
    method: 'GET',
    path: '/feedback/conversations',
    summary: 'List feedback conversations',
    scope: 'feedback:read',
    query: conversationListQuery,
    response: conversationListSchema,
  }),
  createFeedbackConversation: defineRoute({
    ...base,
    id: 'createFeedbackConversation',
    method: 'POST',
    path: '/feedback/conversations',
    summary: 'Open a feedback conversation with the customer’s feedback',
    scope: 'feedback:write',
    body: createConversationBody,
    response: conversationSchema,
  }),
  getFeedbackConversation: defineRoute({
    ...base,
    id: 'getFeedbackConversation',
    method: 'GET',
    path: '/feedback/conversations/{id}',
    summary: 'Get a feedback conversation with its messages',
    scope: 'feedback:read',
    params: idParams,
    response: conversationSchema,
  }),
  updateFeedbackConversation: defineRoute({
    ...base,
    id: 'updateFeedbackConversation',
    method: 'PATCH',
    path: '/feedback/conversations/{id}',
    summary: 'Close or reopen a feedback conversation',
    scope: 'feedback:write',
    params: idParams,
    body: updateConversationBody,
    response: conversationSchema,
  }),
  replyToFeedbackConversation: defineRoute({
    ...base,
    id: 'replyToFeedbackConversation',
    method: 'POST',
    path: '/feedback/conversations/{id}/messages',
    summary: 'Reply as staff; emails the customer a link to the thread',
    scope: 'feedback:write',
    params: idParams,
    body: replyBody,
    response: conversationSchema,
    problems: ['feedback.conversation_closed'],
  }),
  listFeedbackRequests: defineRoute({
    ...base,
    id: 'listFeedbackRequests',
    method: 'GET',
    path: '/feedback/requests',
    summary: 'List feedback requests',
    scope: 'feedback:read',
    query: requestListQuery,
    response: requestListSchema,
  }),
  createFeedbackRequest: defineRoute({
    ...base,
    id: 'createFeedbackRequest',
    method: 'POST',
    path: '/feedback/requests',
    summary: 'Email the customer a rating link',
    scope: 'feedback:write',
    body: createRequestBody,
    response: requestSchema,
    problems: ['feedback.ticket_not_found'],
  }),
  getFeedbackRequest: defineRoute({
    ...base,
    id: 'getFeedbackRequest',
    method: 'GET',
    path: '/feedback/requests/{id}',
    summary: 'Get a feedback request and its funnel status',
    scope: 'feedback:read',
    params: idParams,
    response: requestSchema,
  }),
} satisfies Record<string, RouteDef>;

/**
 * The emailed rating link (no API key: the signed token names the project, environment and request).
 * A forged token is refused with the path (404); a used or expired one by the handler (its 404 page).
 */
// A token this service did not sign is a 404 before anything else is read (the body included).
const tokenParams = {
  token: v.pipe(
    v.string(),
    v.maxLength(512),
    v.check((token) => verifyFeedbackToken(token) !== undefined),
  ),
};
const publicBase = {
  group: 'public' as const,
  tenancy: 'public' as const,
  tags: ['Feedback'],
  params: tokenParams,
  linkToken: true as const,
};

export const publicFeedbackRoutes = {
  showFeedbackPage: defineRoute({
    ...publicBase,
    id: 'showFeedbackPage',
    method: 'GET',
    path: '/public/feedback/{token}',
    summary: 'The rating page of a feedback request (or a reply thread), as HTML',
    produces: 'text/html',
  }),
  submitFeedbackRating: defineRoute({
    ...publicBase,
    id: 'submitFeedbackRating',
    method: 'POST',
    path: '/public/feedback/{token}',
    summary: 'Submit a rating (form or JSON); single use',
    bodyType: 'form-or-json',
    body: submitRatingBody,
    response: conversationSchema,
  }),
} satisfies Record<string, RouteDef>;

/** Both groups, for the route table. */
export const feedbackRoutes = { ...feedbackApiRoutes, ...publicFeedbackRoutes } satisfies Record<string, RouteDef>;

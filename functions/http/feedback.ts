import { feedbackApiRoutes } from '@helpdesk/core/areas/feedback/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  conversations: () => import('@helpdesk/core/areas/feedback/conversations'),
  requests: () => import('@helpdesk/core/areas/feedback/requests'),
});

export const handler = createGroupHandler(feedbackApiRoutes, {
  listFeedbackConversations: async ({ ctx, query }) => (await use.conversations()).listConversations(ctx, query),
  createFeedbackConversation: async ({ ctx, body }) => (await use.conversations()).createConversation(ctx, body),
  getFeedbackConversation: async ({ ctx, params }) => (await use.conversations()).getConversation(ctx, params.id),
  updateFeedbackConversation: async ({ ctx, params, body }) =>
    (await use.conversations()).setConversationStatus(ctx, params.id, body.status),
  replyToFeedbackConversation: async ({ ctx, params, body }) =>
    (await use.conversations()).replyToConversation(ctx, params.id, body.body),
  listFeedbackRequests: async ({ ctx, query }) => (await use.requests()).listRequests(ctx, query),
  createFeedbackRequest: async ({ ctx, body }) => (await use.requests()).createRequest(ctx, body),
  getFeedbackRequest: async ({ ctx, params }) => (await use.requests()).getRequest(ctx, params.id),
});

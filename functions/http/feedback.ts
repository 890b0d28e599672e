import { createConversation, getConversation, listConversations, replyToConversation, setConversationStatus } from '@helpdesk/core/feedback/conversations';
import { createRequest, getRequest, listRequests } from '@helpdesk/core/feedback/requests';
import { feedbackApiRoutes } from '@helpdesk/core/feedback/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';

export const handler = createGroupHandler(feedbackApiRoutes, {
  listFeedbackConversations: async ({ ctx, query }) => listConversations(ctx, query),
  createFeedbackConversation: async ({ ctx, body }) => createConversation(ctx, body),
  getFeedbackConversation: async ({ ctx, params }) => getConversation(ctx, params.id),
  updateFeedbackConversation: async ({ ctx, params, body }) => setConversationStatus(ctx, params.id, body.status),
  replyToFeedbackConversation: async ({ ctx, params, body }) => replyToConversation(ctx, params.id, body.body),
  listFeedbackRequests: async ({ ctx, query }) => listRequests(ctx, query),
  createFeedbackRequest: async ({ ctx, body }) => createRequest(ctx, body),
  getFeedbackRequest: async ({ ctx, params }) => getRequest(ctx, params.id),
});

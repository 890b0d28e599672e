import { feedbackApiRoutes } from '@helpdesk/core/feedback/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const conversations = onFirstCall(() => import('@helpdesk/core/feedback/conversations'));
const requests = onFirstCall(() => import('@helpdesk/core/feedback/requests'));

export const handler = createGroupHandler(feedbackApiRoutes, {
  listFeedbackConversations: async ({ ctx, query }) => (await conversations()).listConversations(ctx, query),
  createFeedbackConversation: async ({ ctx, body }) => (await conversations()).createConversation(ctx, body),
  getFeedbackConversation: async ({ ctx, params }) => (await conversations()).getConversation(ctx, params.id),
  updateFeedbackConversation: async ({ ctx, params, body }) => (await conversations()).setConversationStatus(ctx, params.id, body.status),
  replyToFeedbackConversation: async ({ ctx, params, body }) => (await conversations()).replyToConversation(ctx, params.id, body.body),
  listFeedbackRequests: async ({ ctx, query }) => (await requests()).listRequests(ctx, query),
  createFeedbackRequest: async ({ ctx, body }) => (await requests()).createRequest(ctx, body),
  getFeedbackRequest: async ({ ctx, params }) => (await requests()).getRequest(ctx, params.id),
});

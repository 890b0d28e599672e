import type { TenantContext } from '@helpdesk/core/auth/context';
import { requirePlan } from '@helpdesk/core/auth/quota';
import {
  createConversation,
  getConversation,
  listConversations,
  replyToConversation,
  setConversationStatus,
} from '@helpdesk/core/feedback/conversations';
import { createRequest, getRequest, listRequests } from '@helpdesk/core/feedback/requests';
import { feedbackApiRoutes } from '@helpdesk/core/feedback/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';

/** Feedback is a Pro feature: every route checks the plan first. */
const pro =
  <Req extends { ctx: TenantContext }, Res>(impl: (req: Req) => Promise<Res>) =>
  async (req: Req) => {
    requirePlan(req.ctx, 'pro', 'Feedback');
    return impl(req);
  };

export const handler = createGroupHandler(feedbackApiRoutes, {
  listFeedbackConversations: pro(async ({ ctx, query }) => listConversations(ctx, query)),
  createFeedbackConversation: pro(async ({ ctx, body }) => createConversation(ctx, body)),
  getFeedbackConversation: pro(async ({ ctx, params }) => getConversation(ctx, params.id)),
  updateFeedbackConversation: pro(async ({ ctx, params, body }) => setConversationStatus(ctx, params.id, body.status)),
  replyToFeedbackConversation: pro(async ({ ctx, params, body }) => replyToConversation(ctx, params.id, body.body)),
  listFeedbackRequests: pro(async ({ ctx, query }) => listRequests(ctx, query)),
  createFeedbackRequest: pro(async ({ ctx, body }) => createRequest(ctx, body)),
  getFeedbackRequest: pro(async ({ ctx, params }) => getRequest(ctx, params.id)),
});

import { publicTicketRoutes } from '@helpdesk/core/areas/conversations/routes';
import { publicFeedbackRoutes } from '@helpdesk/core/areas/feedback/routes';
import { ATTACHMENTS_PER_MESSAGE, MAX_ATTACHMENT_BYTES } from '@helpdesk/core/areas/tickets/values';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each page's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  ratingPage: () => import('@helpdesk/core/areas/feedback/rating-page'),
  ticketPage: () => import('@helpdesk/core/areas/conversations/ticket-page-html'),
});

/** Routes without an API key: the emailed feedback and ticket pages. Browsers get HTML; JSON clients get JSON. */
export const handler = createGroupHandler(
  { ...publicFeedbackRoutes, ...publicTicketRoutes },
  {
    showFeedbackPage: async ({ params }) => (await use.ratingPage()).showFeedbackPage(params.token),
    submitFeedbackRating: async ({ params, body, headers }) =>
      (await use.ratingPage()).submitFeedbackRating(params.token, body, headers),
    showCustomerTicket: async ({ params, headers }) => (await use.ticketPage()).showTicketPage(params.token, headers),
    answerCustomerTicket: async ({ params, body, headers }) =>
      (await use.ticketPage()).answerTicketPage(params.token, body, headers),
  },
  // One part more than a message may hold, so too many files is a 422 rather than a silent drop.
  { multipart: { fileSize: MAX_ATTACHMENT_BYTES, files: ATTACHMENTS_PER_MESSAGE + 1 } },
);

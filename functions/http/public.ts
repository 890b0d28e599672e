import { publicTicketRoutes } from '@helpdesk/core/conversations/routes';
import { publicFeedbackRoutes } from '@helpdesk/core/feedback/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';
import { ATTACHMENTS_PER_MESSAGE, MAX_ATTACHMENT_BYTES } from '@helpdesk/core/tickets/values';

// Each page's code loads on its first call (docs/architecture.md, One route table).
const ratingPage = onFirstCall(() => import('@helpdesk/core/feedback/rating-page'));
const ticketPage = onFirstCall(() => import('@helpdesk/core/conversations/ticket-page-html'));

/** Routes without an API key: the emailed feedback and ticket pages. Browsers get HTML; JSON clients get JSON. */
export const handler = createGroupHandler(
  { ...publicFeedbackRoutes, ...publicTicketRoutes },
  {
    showFeedbackPage: async ({ params }) => (await ratingPage()).showFeedbackPage(params.token),
    submitFeedbackRating: async ({ params, body, headers }) => (await ratingPage()).submitFeedbackRating(params.token, body, headers),
    showCustomerTicket: async ({ params, headers }) => (await ticketPage()).showTicketPage(params.token, headers),
    answerCustomerTicket: async ({ params, body, headers }) => (await ticketPage()).answerTicketPage(params.token, body, headers),
  },
  // One part more than a message may hold, so too many files is a 422 rather than a silent drop.
  { multipart: { fileSize: MAX_ATTACHMENT_BYTES, files: ATTACHMENTS_PER_MESSAGE + 1 } },
);

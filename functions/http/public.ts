import { publicTicketRoutes } from '@helpdesk/core/conversations/routes';
import { publicFeedbackRoutes } from '@helpdesk/core/feedback/routes';
import { errors } from '@helpdesk/core/errors/common';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { rawResponse } from '@helpdesk/core/http/route';
import { ATTACHMENTS_PER_MESSAGE, MAX_ATTACHMENT_BYTES } from '@helpdesk/core/tickets/values';

// Each page's code loads on its first call (docs/architecture.md, One route table).
const pages = () => import('@helpdesk/core/feedback/pages');
const rating = () => import('@helpdesk/core/feedback/rating');
const ticketPage = () => import('@helpdesk/core/conversations/ticket-page-html');

const isForm = (contentType: string | undefined) => /^application\/x-www-form-urlencoded\b/i.test(contentType ?? '');

/** Routes without an API key: the emailed feedback and ticket pages. Browsers get HTML; JSON clients get JSON. */
export const handler = createGroupHandler(
  { ...publicFeedbackRoutes, ...publicTicketRoutes },
  {
    showFeedbackPage: async ({ params }) => {
      const [page, { HTML_HEADERS }] = await Promise.all([(await rating()).feedbackPage(params.token), pages()]);
      return rawResponse(page.status, page.html, HTML_HEADERS);
    },
    submitFeedbackRating: async ({ params, body, headers }) => {
      const form = isForm(headers['content-type']);
      const [conversation, { HTML_HEADERS, notFoundPage, thanksPage }] = await Promise.all([(await rating()).submitRating(params.token, body), pages()]);
      if (!conversation) {
        if (form) return rawResponse(404, notFoundPage(), HTML_HEADERS);
        throw errors.notFound('Feedback request');
      }
      return form ? rawResponse(200, thanksPage(conversation.rating), HTML_HEADERS) : conversation;
    },
    showCustomerTicket: async ({ params, headers }) => (await ticketPage()).showTicketPage(params.token, headers),
    answerCustomerTicket: async ({ params, body, headers }) => (await ticketPage()).answerTicketPage(params.token, body, headers),
  },
  // One part more than a message may hold, so too many files is a 422 rather than a silent drop.
  { multipart: { fileSize: MAX_ATTACHMENT_BYTES, files: ATTACHMENTS_PER_MESSAGE + 1 } },
);

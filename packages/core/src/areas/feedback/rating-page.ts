import { type RawResult, rawResponse } from '../../kernel/api/route.js';
import { errors } from '../../kernel/errors/common.js';
import { HTML_HEADERS, notFoundPage, thanksPage } from './pages.js';
import { feedbackPage, submitRating } from './rating.js';

const isForm = (contentType: string | undefined) => /^application\/x-www-form-urlencoded\b/i.test(contentType ?? '');

/** `GET /public/feedback/{token}`: the rating page the customer's email links to. */
export async function showFeedbackPage(token: string): Promise<RawResult> {
  const page = await feedbackPage(token);
  return rawResponse(page.status, page.html, HTML_HEADERS);
}

/** `POST /public/feedback/{token}`: the page's form gets HTML back; a JSON client gets the conversation (or a 404 error). */
export async function submitFeedbackRating(
  token: string,
  body: Parameters<typeof submitRating>[1],
  headers: Record<string, string | undefined>,
) {
  const form = isForm(headers['content-type']);
  const conversation = await submitRating(token, body);
  if (!conversation) {
    if (form) return rawResponse(404, notFoundPage(), HTML_HEADERS);
    throw errors.notFound('Feedback request');
  }
  return form ? rawResponse(200, thanksPage(conversation.rating), HTML_HEADERS) : conversation;
}

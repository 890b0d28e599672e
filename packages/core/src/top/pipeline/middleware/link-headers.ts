import type { Middleware, PipelineRequest } from './state.js';

/** What a page reached by a mailed link answers with, whatever the route or its error set. */
const LINK_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/**
 * 0. For routes whose path holds a link's token (`linkToken`): the answer, JSON or page, success or error,
 * is never cached and never sends its address on as a referrer, and varies on Accept (one address answers
 * HTML and JSON). Used before the error responder, so it sees that step's answers too.
 */
export const linkHeaders = (): Middleware => {
  const add = (request: PipelineRequest) => {
    if (!request.internal.route?.linkToken || !request.response) return;
    const headers = { ...(request.response.headers ?? {}) };
    const vary = String(headers.vary ?? '');
    request.response.headers = {
      ...headers,
      ...LINK_HEADERS,
      vary: vary && !/\baccept\b/i.test(vary) ? `${vary}, Accept` : vary || 'Accept',
    };
  };
  return { after: add, onError: add };
};

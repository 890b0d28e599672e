import { rateHeaders } from '../../../identity/rate-limit.js';
import { errors } from '../../../kernel/errors/common.js';
import { Problem, problem } from '../../../kernel/errors/problem.js';
import { isUnavailable } from '../../../kernel/errors/unavailable.js';
import { addLogContext, logContext, logger } from '../../../kernel/logger.js';
import { errorPage, wantsPage } from './error-page.js';
import { json, type Middleware, type PipelineRequest } from './state.js';

/** How long a client waits after a 503: the SDK's own retries already spent about a second. */
const UNAVAILABLE_RETRY_AFTER = 2;

/** The answer's headers every response carries: the request id, and the key's rate state when it was counted. */
function finish(request: PipelineRequest) {
  const response = request.response;
  if (!response) return;
  const { rate } = request.internal;
  const requestId = String(logContext().requestId ?? request.event.requestContext.requestId);
  response.headers = { ...response.headers, ...(rate ? rateHeaders(rate) : {}), 'X-Request-Id': requestId };
  addLogContext({ status: response.statusCode });
  // One line per request, with what the pipeline learnt of it (route, tenant) and its outcome.
  logger.info('request', { method: request.event.requestContext.http.method, path: request.event.rawPath });
}

/**
 * 1. Every failure becomes the spec's error shape; a 500 never carries a stack, and a dependency that
 * throttled or failed is a 503 with Retry-After, never a 500. Every answer carries X-Request-Id (API
 * Gateway's request id; it is on every log line of the request) and, for a counted key, the
 * X-RateLimit headers.
 */
export const errorResponder = (): Middleware => ({
  onError: (request) => {
    let error: unknown = request.error;
    const status = (error as { statusCode?: number } | undefined)?.statusCode;
    if (!(error instanceof Problem) && typeof status === 'number' && status >= 400 && status < 500) {
      // Errors raised by middy middlewares (multipart parsing): the request is at fault, told in the
      // service's words (the library's own text is not shown).
      const message =
        status === 413 ? 'A file is larger than this operation takes' : 'The multipart body could not be read';
      error = errors.validation([{ field: '(body)', in: 'body', message }]);
    }
    if (!(error instanceof Problem)) {
      const answer = isUnavailable(error)
        ? problem('service.unavailable', { retryAfter: UNAVAILABLE_RETRY_AFTER })
        : errors.internal();
      // The cause is logged with the code the client got, never sent to the client.
      logger.error(answer.status === 503 ? 'A dependency is unavailable' : 'Unhandled error', {
        code: answer.code,
        error: error as Error,
      });
      error = answer;
    }
    const e = error as Problem;
    addLogContext({ code: e.code });
    request.response = wantsPage(request) ? errorPage(e) : json(e.status, e.toBody(), e.headers ?? {});
    finish(request);
  },
  after: (request) => finish(request),
});

import { rateHeaders } from '../../../identity/rate-limit.js';
import { errors } from '../../../kernel/errors/common.js';
import { Problem } from '../../../kernel/errors/problem.js';
import { logger } from '../../../kernel/logger.js';
import { json, type Middleware } from './state.js';

/**
 * 1. Every failure becomes the spec's error shape; a 500 never carries a stack. Every answer to a
 * counted key carries the X-RateLimit headers.
 */
export const errorResponder = (): Middleware => ({
  onError: (request) => {
    const rate = request.internal.rate ? rateHeaders(request.internal.rate) : {};
    let error: unknown = request.error;
    const status = (error as { statusCode?: number } | undefined)?.statusCode;
    if (!(error instanceof Problem) && typeof status === 'number' && status >= 400 && status < 500) {
      // Errors raised by middy middlewares (multipart parsing): the request is at fault.
      error = errors.validation([
        { field: '(body)', in: 'body', message: (error as Error | undefined)?.message ?? 'Invalid request body' },
      ]);
    }
    if (!(error instanceof Problem)) {
      logger.error('Unhandled error', { error: error as Error, routeKey: request.event.routeKey });
      error = errors.internal();
    }
    const e = error as Problem;
    request.response = json(e.status, e.toBody(), { ...rate, ...(e.headers ?? {}) });
  },
  after: (request) => {
    const { rate } = request.internal;
    if (request.response && rate) request.response.headers = { ...request.response.headers, ...rateHeaders(rate) };
  },
});

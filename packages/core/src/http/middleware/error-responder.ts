import { errors } from '../../errors/common.js';
import { HttpError } from '../../errors/problem.js';
import { logger } from '../../logger.js';
import { rateHeaders } from '../../auth/rate-limit.js';
import { json, type Middleware } from './state.js';

/**
 * 1. Every failure becomes the spec's error shape; a 500 never carries a stack. Every answer to a
 * counted key carries the X-RateLimit headers.
 */
export const errorResponder = (): Middleware => ({
  onError: async (request) => {
    const rate = request.internal.rate ? rateHeaders(request.internal.rate) : {};
    let error: unknown = request.error;
    const status = (error as { statusCode?: number } | undefined)?.statusCode;
    if (!(error instanceof HttpError) && typeof status === 'number' && status >= 400 && status < 500) {
      // Errors raised by middy middlewares (multipart parsing): the request is at fault.
      error = errors.validation([{ field: '(body)', in: 'body', message: (error as Error | undefined)?.message ?? 'Invalid request body' }]);
    }
    if (!(error instanceof HttpError)) {
      logger.error('Unhandled error', { error: error as Error, routeKey: request.event.routeKey });
      error = errors.internal();
    }
    const e = error as HttpError;
    request.response = json(e.status, e.toBody(), { ...rate, ...(e.headers ?? {}) });
  },
  after: async (request) => {
    const { rate } = request.internal;
    if (request.response && rate) request.response.headers = { ...request.response.headers, ...rateHeaders(rate) };
  },
});

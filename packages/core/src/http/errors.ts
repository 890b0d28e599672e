/** Every failure the API answers with: status plus the spec's `{ error: { code, message, details? } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toBody() {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export interface FieldIssue {
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  message: string;
}

export const errors = {
  unauthorized: (message = 'A valid API key is required: send Authorization: Bearer <key>.') =>
    new HttpError(401, 'auth.unauthorized', message),
  forbidden: (message: string, details?: Record<string, unknown>) => new HttpError(403, 'auth.forbidden', message, details),
  notFound: (what = 'Resource') => new HttpError(404, 'not_found', `${what} not found.`),
  methodNotAllowed: (allowed: string[]) =>
    new HttpError(405, 'method_not_allowed', `Method not allowed. Allowed: ${allowed.join(', ')}.`, { allowed }, {
      Allow: allowed.join(', '),
    }),
  validation: (issues: FieldIssue[], message?: string) =>
    new HttpError(
      422,
      'validation.failed',
      message ?? `Invalid request: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`,
      { fields: issues },
    ),
  /** A 422 about the request that is not one field's shape (a conflict with stored state, for example). */
  unprocessable: (code: string, message: string, details?: Record<string, unknown>) =>
    new HttpError(422, code, message, details),
  /** Other requests kept changing the same record; the client may simply retry. */
  conflict: (what: string) => new HttpError(409, 'conflict', `${what} is being changed by other requests at the same moment; retry.`),
  internal: () => new HttpError(500, 'internal', 'An unexpected error occurred. It has been logged.'),
};

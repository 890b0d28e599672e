import { HttpError, problem } from '../errors/problem.js';

export { HttpError };

export interface FieldIssue {
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  message: string;
}

/** The pipeline's generic problems, by the words its callers use (codes and texts live in errors/catalog.ts). */
export const errors = {
  unauthorized: () => problem('auth.unauthorized'),
  notFound: (what = 'Resource') => problem('not_found', { what }),
  methodNotAllowed: (allowed: string[]) => problem('method_not_allowed', { allowed }),
  validation: (issues: FieldIssue[], message?: string) => problem('validation.failed', { fields: issues, ...(message ? { message } : {}) }),
  /** Other requests kept changing the same record; the client may simply retry. */
  conflict: (what: string) => problem('conflict', { what }),
  internal: () => problem('internal'),
};

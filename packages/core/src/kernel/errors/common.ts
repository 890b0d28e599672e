import { problem } from './problem.js';

export interface FieldIssue {
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  message: string;
}

/** The generic problems every area raises, by the words its callers use (codes and texts live in catalog.ts). */
export const errors = {
  unauthorized: () => problem('auth.unauthorized'),
  notFound: (what = 'Resource') => problem('not_found', { what }),
  methodNotAllowed: (allowed: string[]) => problem('method_not_allowed', { allowed }),
  validation: (issues: FieldIssue[], message?: string) =>
    problem('validation.failed', { fields: issues, ...(message ? { message } : {}) }),
  /** Other requests kept changing the same record; the client may simply retry. */
  conflict: (what: string) => problem('conflict', { what }),
  internal: () => problem('internal'),
};

import { errors } from '../../../kernel/errors/common.js';
import { problem } from '../../../kernel/errors/problem.js';
import type { Middleware } from './state.js';

/** 5. `$default`: 405 `method_not_allowed` for a known path, else 404 `not_found`, once the key was counted. */
export const unknownRoute = (): Middleware => ({
  before: ({ event, internal }) => {
    if (!internal.unknown) return;
    if (internal.unknown.allowed) throw errors.methodNotAllowed(internal.unknown.allowed);
    throw problem('not_found', { route: `${event.requestContext.http.method} ${event.rawPath}` });
  },
});

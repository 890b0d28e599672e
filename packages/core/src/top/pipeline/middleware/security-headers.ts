import type { Middleware, PipelineRequest } from './state.js';

/**
 * 0. Headers every answer carries, whatever step gave it: `nosniff` (a browser never reads JSON, a file or
 * a page as another type), and on a keyed route's JSON `Cache-Control: no-store` unless the route chose its
 * own (an account's data never sits in a browser's or a proxy's cache). Pages set their own policies.
 */
export const securityHeaders = (): Middleware => {
  const add = (request: PipelineRequest) => {
    const response = request.response;
    if (!response) return;
    const headers = { ...(response.headers ?? {}) };
    const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
    if (!has('x-content-type-options')) headers['x-content-type-options'] = 'nosniff';
    const type = String(Object.entries(headers).find(([key]) => key.toLowerCase() === 'content-type')?.[1] ?? '');
    const keyed = request.internal.route ? request.internal.route.tenancy !== 'public' : true;
    if (keyed && type.startsWith('application/json') && !has('cache-control')) headers['cache-control'] = 'no-store';
    response.headers = headers;
  };
  return { after: add, onError: add };
};

import type { Middleware, PipelineRequest } from './state.js';

/**
 * 0. A HEAD request is answered as its GET (top/pipeline/match.ts), status and headers included, without
 * the body. Used first, so it sees every other step's answer, errors too.
 */
export const headBody = (): Middleware => {
  const strip = (request: PipelineRequest) => {
    if (request.event.requestContext?.http?.method !== 'HEAD' || !request.response) return;
    request.response = { ...request.response, body: '', isBase64Encoded: false };
  };
  return { after: strip, onError: strip };
};

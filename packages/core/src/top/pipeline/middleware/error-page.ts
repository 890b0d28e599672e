import { escapeHtml } from '../../../areas/templates/escape.js';
import { acceptsJson } from '../../../kernel/api/accept.js';
import { answersHtml } from '../../../kernel/api/route.js';
import type { Problem } from '../../../kernel/errors/problem.js';
import { headerOf, type PipelineRequest, type Result } from './state.js';

/** Paths whose unknown addresses a browser opens (the route table has no route to say so). */
const PAGE_PATHS = /^\/(help|console)(\/|$)/;

/**
 * Whether a failed request came from a browser on a page: a route that answers HTML (or an unknown
 * address under /help or /console), from a client that neither asks for nor sends JSON. Such a
 * visitor gets an HTML page with the status, not the API's JSON error.
 */
export function wantsPage(request: PipelineRequest): boolean {
  const { event } = request;
  if (acceptsJson(headerOf(event, 'accept')) || /\bjson\b/i.test(headerOf(event, 'content-type') ?? '')) return false;
  const route = request.internal.route;
  return route ? answersHtml(route) : PAGE_PATHS.test(event.rawPath);
}

const TITLES: Record<number, string> = {
  400: 'Something is missing',
  401: 'Sign in first',
  403: 'Not allowed',
  404: 'Page not found',
  405: 'Not allowed here',
  409: 'Please try again',
  413: 'Too large',
  422: 'That did not work',
  429: 'Too many requests',
};

/** The error as a small self-contained page: no script, no outside resource, never stored. */
export function errorPage(problem: Problem): Result {
  const title = TITLES[problem.status] ?? (problem.status >= 500 ? 'Something went wrong' : 'That did not work');
  const message = problem.code === 'not_found' ? 'There is no page at this address.' : problem.message;
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2937}main{max-width:40rem;margin:4rem auto;padding:0 1rem}</style>
</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`;
  return {
    statusCode: problem.status,
    headers: {
      ...(problem.headers ?? {}),
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    },
    body,
  };
}

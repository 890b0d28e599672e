import { createHash } from 'node:crypto';
import { type RawResult, rawResponse } from '../../kernel/api/route.js';
import { missingPage } from './layout.js';

/**
 * Headers of every portal page. `no-cache` lets browsers and the CDN keep a page but ask again each
 * time: the ETag is the page's own hash, so a changed article changes it at once, and an unchanged
 * page costs a 304 without its bytes (docs/decisions.md, Help center caching).
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};
const CACHED = { 'cache-control': 'public, no-cache' };
const UNCACHED = { 'cache-control': 'no-store' };

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Whether an If-None-Match header names this ETag (weak or strong, in a list, or `*`). */
function matches(header: string | undefined, etag: string) {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** A page anyone may cache: 200 with its ETag, or 304 when the client holds the same page. */
export function cachedPage(
  body: string,
  requestHeaders: Record<string, string | undefined>,
  contentType = PAGE_HEADERS['content-type'],
): RawResult {
  const etag = etagOf(body);
  const headers = { ...PAGE_HEADERS, 'content-type': contentType, ...CACHED, etag };
  if (matches(requestHeaders['if-none-match'], etag)) return rawResponse(304, '', headers);
  return rawResponse(200, body, headers);
}

/** A page for this visitor only (an answer to a form, a notice): never stored. */
export const privatePage = (status: number, body: string, extra: Record<string, string> = {}) =>
  rawResponse(status, body, { ...PAGE_HEADERS, ...UNCACHED, ...extra });

export const missing = () => privatePage(404, missingPage());

/** A handle that moved: permanent, so search engines move their links too. */
export const movedPermanently = (location: string, status: 301 | 308 = 301) =>
  rawResponse(status, '', { location, 'cache-control': 'public, max-age=3600' });

export const seeOther = (location: string) => rawResponse(303, '', { location, ...UNCACHED });

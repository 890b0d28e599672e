/**
 * Server-rendered HTML: `html` is a tagged template that escapes every interpolated value unless it is
 * already `Html` (another `html` result). Arrays are joined; null, undefined and false render nothing.
 */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeText = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

type Part = Html | string | number | boolean | null | undefined | Part[];

const render = (part: Part): string => {
  if (part === null || part === undefined || part === false) return '';
  if (Array.isArray(part)) return part.map(render).join('');
  if (part instanceof Html) return part.value;
  return escapeText(String(part));
};

export const html = (strings: TemplateStringsArray, ...parts: Part[]) =>
  new Html(strings.reduce((out, s, i) => out + s + (i < parts.length ? render(parts[i]) : ''), ''));

/**
 * Every console page: no framing, no caching, nothing loaded from elsewhere, no scripts at all.
 * `same-origin` referrers (not `no-referrer`): with no-referrer, Chromium sends `Origin: null` on the
 * console's own form posts, and the guard checks that Origin.
 */
export const CONSOLE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

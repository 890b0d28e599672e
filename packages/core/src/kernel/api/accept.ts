/**
 * Whether an Accept header asks for JSON over HTML: a JSON media type (`application/json`, `…+json`)
 * named with a quality above 0 and at least that of HTML (`text/html`, `text/*` or `*\/*`, the best
 * of them). `*\/*` alone is no request for JSON (curl sends it), and `application/json;q=0` refuses it.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  let json = 0;
  let html = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';');
    const media = type.trim().toLowerCase();
    const q = quality(params);
    if (media === 'application/json' || media.endsWith('+json')) json = Math.max(json, q);
    else if (media === 'text/html' || media === 'text/*' || media === '*/*') html = Math.max(html, q);
  }
  return json > 0 && json >= html;
}

/** A range's `q` parameter (RFC 9110 12.4.2: 0 to 1, default 1); an unreadable one counts as 1. */
function quality(params: string[]): number {
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const q = Number(value.trim());
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 1;
  }
  return 1;
}

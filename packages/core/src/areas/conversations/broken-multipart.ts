/**
 * Whether a top-level Content-Type is a multipart that cannot hold a part: no boundary, an empty one,
 * or one whose delimiter line never appears in the mail. (A multipart whose parts are empty does hold
 * parts: it stays an empty mail.)
 */
export function holdsNoPart(raw: Buffer, contentType: string): boolean {
  if (!/^\s*multipart\//i.test(contentType)) return false;
  const param = BOUNDARY.exec(contentType);
  const boundary = param?.[1] ?? param?.[2] ?? '';
  if (!boundary) return true;
  const text = raw.toString('latin1');
  const delimiter = `--${boundary}`;
  return !text.startsWith(delimiter) && !text.includes(`\n${delimiter}`);
}

/**
 * Whether a top-level Content-Type is there but is no `type/subtype` (empty, `text`, `;;;`): RFC 2045 (5.2)
 * recommends its default, text/plain, then; the parser would keep the customer's words as a nameless file.
 */
export function unreadableType(contentType: string | undefined): boolean {
  return contentType !== undefined && !MEDIA_TYPE.test(contentType);
}

/**
 * A top-level multipart without a boundary, or whose boundary never appears, holds no part: the parser
 * then finds no text, no HTML and no file, and the customer's words were lost. Mail clients show such a
 * body (or one whose type is unreadable) as plain text; so does this: the raw mail with its top-level
 * Content-Type header renamed (same length, so nothing moves), so RFC 2045's default, text/plain, applies.
 */
export function asPlainText(raw: Buffer): Buffer {
  const text = raw.toString('latin1');
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  const end = [crlf, lf].filter((at) => at >= 0).reduce((a, b) => Math.min(a, b), text.length);
  const header = CONTENT_TYPE.exec(text.slice(0, end));
  if (!header) return raw;
  const copy = Buffer.from(raw);
  copy.write(RENAMED, header.index + header[0].length - 'content-type'.length, 'latin1');
  return copy;
}

/** The header's name at the start of a line of the header block (a linear scan: no nested repetition). */
const CONTENT_TYPE = /(?:^|\n)content-type(?=[ \t]*:)/i;
const RENAMED = 'x-ctype-gone'; // as long as `content-type`
/** RFC 2045's `type/subtype`: tokens (no space, control or tspecial), then parameters or the end. */
const MEDIA_TYPE = /^\s*[!#$%&'*+\-.^_`|~0-9a-z]+\/[!#$%&'*+\-.^_`|~0-9a-z]+\s*(?:;|$)/i;
/** RFC 2046 boundary parameter, quoted or not (no nested repetition). */
const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

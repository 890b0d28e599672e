/**
 * Text parts whose charset label cannot be trusted. RFC 2045 makes a part without a charset US-ASCII,
 * yet mail from scripts and old clients carries 8-bit text that way: the parser reads it as UTF-8, so
 * Latin-1 or windows-1252 bytes became U+FFFD and the customer's accented words were lost. A part
 * labelled US-ASCII that holds UTF-8 (a common script bug) read as windows-1252 became mojibake. As mail
 * clients do: 8-bit text without a usable label is UTF-8 when it is valid UTF-8, else windows-1252.
 */

/** The Content-Type headers of text parts anywhere in a raw mail (folded lines included; linear). */
const TEXT_TYPE = /^content-type:[ \t]*text\/[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*/gim;
const CHARSET = /;[ \t\r\n]*charset[ \t]*=[ \t]*(?:"([^"\r\n]*)"|([^;\s]*))/i;
const ASCII = new Set(['us-ascii', 'ascii', 'ansi_x3.4-1968']);
const REPLACEMENT = Buffer.from('\ufffd');

const isUtf8 = (raw: Buffer) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(raw);
    return true;
  } catch {
    return false;
  }
};
const hasEightBit = (raw: Buffer) => raw.some((byte) => byte >= 0x80);

/**
 * The raw mail with its text parts' labels made usable, or undefined when none needs it. `decoded` is what
 * the parser made of the mail's text and HTML: a U+FFFD the raw does not hold shows bytes that are not UTF-8.
 * The whole mail decides (a part's bytes are not reached without a MIME parser of our own): valid UTF-8
 * throughout gives US-ASCII parts UTF-8; otherwise unlabelled parts whose text lost characters get windows-1252.
 */
export function relabelledCharsets(raw: Buffer, decoded: string): Buffer | undefined {
  if (!hasEightBit(raw)) return undefined;
  const utf8 = isUtf8(raw);
  if (!utf8 && (!decoded.includes('\ufffd') || raw.includes(REPLACEMENT))) return undefined;
  const text = raw.toString('latin1');
  let changed = false;
  const relabelled = text.replace(TEXT_TYPE, (header) => {
    const param = CHARSET.exec(header);
    const label = (param?.[1] ?? param?.[2] ?? '').trim().toLowerCase();
    if (utf8 && ASCII.has(label)) {
      changed = true;
      return header.replace(CHARSET, '; charset=utf-8');
    }
    if (!utf8 && !param) {
      changed = true;
      return `${header}; charset=windows-1252`;
    }
    return header;
  });
  // No Content-Type at all is RFC 2045's text/plain in US-ASCII: the same reading, as a header of its own.
  const untyped = !utf8 && !changed && !TOP_CONTENT_TYPE.test(headerBlock(text));
  if (untyped) return Buffer.concat([Buffer.from('Content-Type: text/plain; charset=windows-1252\r\n'), raw]);
  return changed ? Buffer.from(relabelled, 'latin1') : undefined;
}

/**
 * The raw mail with its own header block read as windows-1252 and written as UTF-8, when that block holds
 * 8-bit bytes that are not UTF-8 (a raw Latin-1 subject or name, which RFC 5322 forbids and old mailers
 * send); the parser reads raw header bytes as UTF-8, so `café` became `caf\ufffd`. Undefined otherwise.
 */
export function utf8HeaderBlock(raw: Buffer): Buffer | undefined {
  const text = raw.toString('latin1');
  const end = headerBlock(text).length;
  const head = raw.subarray(0, end);
  if (!hasEightBit(head) || isUtf8(head)) return undefined;
  return Buffer.concat([Buffer.from(fromC1(text.slice(0, end)), 'utf8'), raw.subarray(end)]);
}

const TOP_CONTENT_TYPE = /(?:^|\n)content-type[ \t]*:/i;
/** The mail's own header block: up to its first empty line. */
const headerBlock = (text: string) => {
  const ends = [text.indexOf('\r\n\r\n'), text.indexOf('\n\n')].filter((at) => at >= 0);
  return text.slice(0, ends.length ? Math.min(...ends) : text.length);
};

/** windows-1252's characters for bytes 0x80-0x9F (WHATWG Encoding); the five it leaves undefined stay C1. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Text with C1 controls (U+0080-U+009F) read as windows-1252's characters. Node's TextDecoder reads the
 * windows-1252 label (and iso-8859-1 and US-ASCII, which the Encoding standard maps to it) as ISO-8859-1,
 * so Outlook's curly quotes, dashes and euro signs (`I=92m`) came out as invisible controls. No mail holds
 * a C1 control as text, so every one is taken for the windows-1252 byte it was.
 */
export const fromC1 = (text: string) =>
  text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH.charAt(c.charCodeAt(0) - 0x80));

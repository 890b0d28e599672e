import { removeBanner } from './banner.js';
import { removeQuotes } from './quotes.js';
import { removeSignature } from './signature.js';

export interface ExtractedReply {
  /** What the customer wrote: quoted history, forwarded mail, signature and a gateway's warning removed. */
  body: string;
  /** The whole text the extraction read: the text part, or the HTML part as text. */
  original: string;
}

const normalize = (text: string) => text.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ');

/**
 * How much of a mail the reader reads: its first 2,000 lines and 200,000 characters. The customer
 * writes at the top and a stored message keeps 10,000 characters, so nothing below this could be kept;
 * the bound keeps every rule's work small whatever a 10 MB mail holds (the original keeps it all).
 */
const READ_LINES = 2_000;
const READ_CHARS = 200_000;

function head(text: string) {
  let end = Math.min(text.length, READ_CHARS);
  let at = -1;
  for (let n = 0; n < READ_LINES; n++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0 || at >= end) return text.slice(0, end);
  }
  end = at;
  return text.slice(0, end);
}

function fromText(text: string) {
  const { lines, found } = removeQuotes(head(text));
  return { body: removeBanner(removeSignature(lines)).join('\n').trim(), found };
}

/**
 * The customer's own words in a received mail. The text part is read line by line (attributions,
 * separators, header blocks and `>` quotes in the major clients' languages); when it shows no quoted
 * history but the HTML part's markup does (a client or language whose attribution is not known here),
 * the HTML's structure decides. HTML-only mail is cut by its markup, then read as text. Never empty:
 * when nothing would be left, the whole text is the reply. The HTML reader (htmlparser2) loads with
 * the first mail that needs it.
 */
export async function extractReply(input: { text?: string; html?: string }): Promise<ExtractedReply> {
  const text = input.text?.trim() ? normalize(input.text) : undefined;
  const html = input.html?.trim() ? input.html : undefined;
  let original = text ?? '';
  let body = '';
  if (text !== undefined) {
    const read = fromText(text);
    body = read.body;
    if (!read.found && html) {
      const structured = (await import('./html.js')).htmlReplyText(html);
      if (structured.found) body = fromText(normalize(structured.text)).body || body;
    }
  } else if (html) {
    const { htmlReplyText, mailHtmlText } = await import('./html.js');
    body = fromText(normalize(htmlReplyText(html).text)).body;
    original = normalize(mailHtmlText(html));
  }
  return { body: body || original.trim(), original };
}

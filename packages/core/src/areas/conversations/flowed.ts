/**
 * `format=flowed` text (RFC 3676) read with its quote depths. postal-mime unfolds a flowed line into the
 * next whatever the next line's quote depth, so a Thunderbird reply written under a quoted line (`> Hi `
 * then `Hello`) became one quoted line and the customer's words were read as history. Here the text part
 * is taken from postal-mime unfolded as sent and unfolded by the RFC: a soft break joins only lines of the
 * same quote depth, and the quote marks of the joined line are not repeated inside the paragraph.
 */

/** The Content-Type headers of text/plain parts anywhere in a raw mail (folded lines included). */
const TEXT_PLAIN = /^content-type:[ \t]*text\/plain\b[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*/gim;
const FORMAT_FLOWED = /;[ \t\r\n]*format[ \t]*=[ \t]*"?flowed\b/i;
const DELSP_YES = /;[ \t\r\n]*delsp[ \t]*=[ \t]*"?yes\b/i;

/**
 * When the mail has exactly one text/plain part and it is flowed: the raw mail with that part's
 * `format` parameter renamed (same length, so nothing moves; postal-mime then hands the text over
 * as sent) and whether its soft breaks carry a deleted space. Otherwise undefined: the raw is read
 * as it is.
 */
export function unflowedRaw(raw: Buffer): { raw: Buffer; delSp: boolean } | undefined {
  const text = raw.toString('latin1');
  const [header, ...others] = text.matchAll(TEXT_PLAIN);
  if (!header || others.length) return undefined;
  const param = FORMAT_FLOWED.exec(header[0]);
  if (!param) return undefined;
  const at = header.index + param.index + param[0].toLowerCase().indexOf('format');
  const copy = Buffer.from(raw);
  copy.write('x-fmtx', at, 'latin1'); // as long as `format`
  return { raw: copy, delSp: DELSP_YES.test(header[0]) };
}

const SIGNATURE_SEPARATOR = '-- ';

/** RFC 3676 section 4: quote depth, space stuffing, soft breaks within one depth, delsp. */
export function decodeFlowed(text: string, delSp: boolean): string {
  const out: string[] = [];
  let paragraph: { depth: number; text: string } | undefined;
  for (const raw of text.split(/\r?\n/)) {
    let depth = 0;
    while (raw.charCodeAt(depth) === 62 /* > */) depth++;
    let line = raw.slice(depth);
    if (line.startsWith(' ')) line = line.slice(1); // space stuffing (4.4)
    const soft = line.endsWith(' ') && line !== SIGNATURE_SEPARATOR;
    if (paragraph && paragraph.depth === depth) paragraph.text += line;
    else {
      if (paragraph) out.push(render(paragraph));
      paragraph = { depth, text: line };
    }
    if (soft) {
      if (delSp) paragraph.text = paragraph.text.slice(0, -1);
      continue;
    }
    out.push(render(paragraph));
    paragraph = undefined;
  }
  if (paragraph) out.push(render(paragraph));
  return out.join('\n');
}

const render = (p: { depth: number; text: string }) => (p.depth ? `${'>'.repeat(p.depth)} ${p.text}` : p.text);

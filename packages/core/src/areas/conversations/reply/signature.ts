import { INVISIBLE, isBlank, isRule, trimChars } from './markers.js';
import { DISCLAIMER, list, NOTICE_HEADINGS, SENT_FROM, VALEDICTIONS } from './words.js';

/**
 * Removes what a mail client or a signature file adds below the customer's words: the `-- ` block,
 * "Sent from my iPhone" lines, mailing-list footers, a closing confidentiality notice and a contact
 * block (name, title, phone, address, links), a sign-off with a name and a title under it. A sign-off
 * the customer typed ("Thanks,\nAlex") is their words and stays; so does a sentence that merely starts
 * like a device line.
 */
export function removeSignature(input: readonly string[]): string[] {
  let lines = trimEnd([...input]);
  const dash = lines.findIndex((line, i) => i > 0 && isDelimiter(line) && lines.slice(0, i).some((l) => !isBlank(l)));
  if (dash > 0) lines = trimEnd(lines.slice(0, dash));
  for (let changed = true; changed && lines.length; ) {
    const before = lines.length;
    lines = trimEnd(STEPS.reduce((rest, step) => step(rest), lines));
    changed = lines.length < before;
  }
  return lines;
}

/** What may close a message, removed from the end until none applies (each may uncover another). */
const STEPS = [
  withoutBoxedBlock,
  withoutContactBlock,
  withoutDisclaimer,
  withoutListFooter,
  withoutDeviceLine,
  withoutDashedName,
  withoutTitledSignOff,
];

/** RFC 3676's `-- ` delimiter, and the `--` clients leave when they trim it. */
const isDelimiter = (line: string) => {
  const t = line.trimEnd();
  return t === '--' || t === '__';
};

function trimEnd(lines: string[]): string[] {
  let end = lines.length;
  // U+1427 is a tracking extension's mark at the end of Gmail mail.
  while (
    end > 0 &&
    (isBlank(lines[end - 1] as string) || isRule(lines[end - 1] as string) || lines[end - 1]?.trim() === '\u1427')
  )
    end--;
  return lines.slice(0, end);
}

const wordCount = (line: string) => line.trim().split(/\s+/).length;

/**
 * "Sent from my iPhone", "Von meinem iPhone gesendet", "(sent from a phone)": a short last line a
 * client adds. A comma makes it a sentence the customer wrote, unless what follows asks to excuse typos.
 */
function isDeviceLine(line: string): boolean {
  const lower = trimChars(line.trim(), `*_()<>[] ${INVISIBLE}`).toLowerCase();
  if (!lower || (wordCount(lower) > 10 && !lower.includes('<http'))) return false;
  const comma = lower.indexOf(', ');
  if (comma >= 0 && !['excuse', 'typo', 'brevity', 'pardon'].some((w) => lower.includes(w, comma))) return false;
  return (
    SENT_FROM.some((p) => lower.startsWith(p)) ||
    // "Get Outlook for iOS" in every language ("Outlook für iOS beziehen", "Obtenir Outlook pour Android").
    (lower.includes('outlook') && (lower.includes('ios') || lower.includes('android')) && wordCount(lower) <= 8) ||
    lower.startsWith('sent by ') ||
    lower.startsWith('from my ') ||
    (lower.startsWith('von meinem') && lower.endsWith('gesendet')) ||
    (lower.startsWith('diese nachricht wurde von meinem') && lower.includes('gesendet'))
  );
}

/**
 * A device line ends the customer's part: mobile clients put it under the new text, and some put the
 * earlier mail below it without quoting it or naming it.
 */
function withoutDeviceLine(lines: string[]): string[] {
  const at = lines.findIndex((line, i) => i > 0 && isDeviceLine(line));
  return at > 0 && lines.slice(0, at).some((l) => !isBlank(l)) ? lines.slice(0, at) : lines;
}

/**
 * A signature between rules (or below one), as many clients and Japanese mail conventions draw it:
 * a rule, at most fifteen lines with two contact lines at least, an optional closing rule, the end.
 */
function withoutBoxedBlock(lines: string[]): string[] {
  for (let i = 0; i < lines.length; i++) {
    if (!isRule(lines[i] as string)) continue;
    const rest = lines.slice(i + 1).filter((l) => !isBlank(l));
    // Another rule inside means this one opens something else (a notice), not the signature.
    if (rest.slice(0, -1).some(isRule)) continue;
    const below = rest.filter((l) => !isRule(l));
    const contacts = below.filter((l) => isContactLine(l) || isLabelled(l)).length;
    if (below.length <= 15 && contacts >= 2) return lines.slice(0, i);
  }
  return lines;
}

/** "-Abhishek Kona": a name after a dash on the last line is the short form of a `-- ` signature. */
function withoutDashedName(lines: string[]): string[] {
  const last = lines.at(-1)?.trim() ?? '';
  const named = last.startsWith('-') && isLetterOrDash(last[1] ?? ' ') && last[1] !== '-' && wordCount(last) <= 3;
  return named && lines.slice(0, -1).some((l) => !isBlank(l)) ? lines.slice(0, -1) : lines;
}

/** A mailing list's footer: a rule, then the list's name, address or unsubscribe link. */
function withoutListFooter(lines: string[]): string[] {
  for (let i = Math.max(0, lines.length - 8); i < lines.length; i++) {
    if (!isRule(lines[i] as string)) continue;
    const below = lines
      .slice(i + 1)
      .join(' ')
      .toLowerCase();
    if (['mailing list', 'listinfo', 'unsubscribe', 'mailman'].some((w) => below.includes(w))) return lines.slice(0, i);
  }
  return lines;
}

/** The last paragraph: from after the last blank line (at least one line back) to the end. */
function lastParagraph(lines: readonly string[]): number {
  let start = lines.length - 1;
  while (start > 0 && !isBlank(lines[start - 1] as string)) start--;
  return start;
}

/**
 * A closing confidentiality notice: a last paragraph of some length that names itself one (or says the
 * mail was scanned for viruses); or a heading ("Disclaimer", "Confidentiality notice") among the last
 * paragraphs with only longer paragraphs under it, one of them such a notice.
 */
function withoutDisclaimer(lines: string[]): string[] {
  const start = lastParagraph(lines);
  if (start <= 0) return lines;
  const isNotice = (text: string) => wordCount(text) >= 12 && DISCLAIMER.some((w) => text.includes(w));
  // Up to four paragraphs of a sentence or more under a heading, one of them a notice.
  let end = lines.length;
  for (let n = 0; n < 5 && end > 0; n++) {
    const from = lastParagraph(trimEnd(lines.slice(0, end)));
    if (from <= 0) break;
    const text = trimChars(lines.slice(from, end).join(' ').trim(), '*_:-= ').toLowerCase();
    if (n > 0 && wordCount(text) <= 3 && NOTICE_HEADINGS.some((w) => text.includes(w))) {
      if (isNotice(lines.slice(end).join(' ').toLowerCase())) return lines.slice(0, from);
      break;
    }
    if (wordCount(text) < 8) break;
    end = from;
  }
  return isNotice(lines.slice(start).join(' ').toLowerCase()) ? lines.slice(0, start) : lines;
}

const digitsIn = (line: string) => {
  let n = 0;
  for (const ch of line) if (ch >= '0' && ch <= '9') n++;
  return n;
};
/** Labels of a signature's contact lines ("Tel:", "M +44 …", "E: …"). */
const CONTACT_LABELS = list(
  'tel|phone|ph|fax|mobile|mob|cell|m|t|f|p|e|w|email|e-mail|web|office|direct|handy|telefon|telefoon|' +
    'tél|téléphone|portable|móvil|cellulare|telefono|mobiel|kvk|btw|iban|vat|skype',
);

/** An email address: a word character on both sides of the @ and a dot after it. */
function hasAddress(line: string): boolean {
  const at = line.indexOf('@');
  return at > 0 && line[at - 1] !== ' ' && line[at + 1] !== undefined && line[at + 1] !== ' ' && line.includes('.', at);
}

/**
 * A line of a contact block that says so itself: a labelled number ("Tel: …"), an email address,
 * a link, an image placeholder. A bare number or a street is not enough (an answer lists those too).
 */
function isContactLine(line: string): boolean {
  const t = trimChars(line.trim(), '*_').toLowerCase();
  if (t.length > 90) return false;
  const labelled = isLabelled(t) && digitsIn(t) >= 5;
  return (
    labelled || hasAddress(t) || t.includes('http://') || t.includes('https://') || t.includes('www.') || isImage(t)
  );
}
/** A run of digits, spaces and + - ( ) . with eight digits at least: a phone number. */
function hasPhoneNumber(line: string): boolean {
  let digits = 0;
  for (const ch of line) {
    if (ch >= '0' && ch <= '9') digits++;
    else if (!' +-().'.includes(ch)) digits = 0;
    if (digits >= 8) return true;
  }
  return false;
}
/** A line that starts with a contact label ("Tel:", "Email:", "M +44"), whatever follows. */
function isLabelled(line: string): boolean {
  const t = trimChars(line.trim(), '*_ ').toLowerCase();
  let label = 0;
  while (label < t.length && isLetterOrDash(t[label] as string)) label++;
  return label > 0 && CONTACT_LABELS.includes(t.slice(0, label)) && label < t.length;
}
const isLetterOrDash = (ch: string) => ch === '-' || ch.toLowerCase() !== ch.toUpperCase();
const isImage = (line: string) => line.trim().toLowerCase().startsWith('[image');
/** A short line that could sit in a signature (a name, a title, a street) rather than a sentence. */
const isShortLine = (line: string) => {
  const t = trimChars(line.trim(), '*_');
  return t.length <= 60 && !t.endsWith('.') && !t.endsWith('?') && !t.endsWith('!') && !t.endsWith(':');
};

/**
 * A contact block at the end: paragraphs of short lines, taken from the end while each holds a
 * contact line (or is one short line, such as a street or an image), with two contact lines at least.
 * The customer's sign-off above it ("Best regards,") stays.
 */
function withoutContactBlock(lines: string[]): string[] {
  let start = lines.length;
  let contacts = 0;
  while (start > 0) {
    const from = lastParagraph(lines.slice(0, start));
    const paragraph = lines.slice(from, start).filter((l) => !isBlank(l));
    const found = paragraph.filter(isContactLine).length;
    const phone = paragraph.some(hasPhoneNumber);
    const short = paragraph.every(isShortLine) || paragraph.every((l) => isContactLine(l) || isShortLine(l));
    // Without a contact line, only a single line with a number (a street) or an image may join.
    const addressLike =
      paragraph.length === 1 && (digitsIn(paragraph[0] as string) > 0 || isImage(paragraph[0] as string));
    if (!short || paragraph.length > 12 || (found === 0 && !phone && !addressLike) || from === 0) break;
    contacts += found;
    start = from;
    while (start > 0 && isBlank(lines[start - 1] as string)) start--;
  }
  return contacts >= 2 && start > 0 ? lines.slice(0, start) : lines;
}

/** A line that is closing words and nothing else ("Best regards,", "Mit freundlichen Grüßen"). */
const isValediction = (line: string) => VALEDICTIONS.includes(trimChars(line.trim(), ',.!-— ').toLowerCase());

/**
 * A line a signature block holds under a name: a title, a company, a department. Short, starting with
 * a capital or a symbol, no question or colon at its end, never a postscript.
 */
function isTitleLine(line: string): boolean {
  if (isContactLine(line) || hasPhoneNumber(line)) return true;
  const t = trimChars(line.trim(), '*_|');
  const lower = t.toLowerCase();
  // Words with a letter or digit: "Head of Support | Acme Ltd" is five.
  const words = t
    .split(/\s+/)
    .filter((w) => [...w].some((ch) => isLetterOrDash(ch) || (ch >= '0' && ch <= '9'))).length;
  if (!t || t.length > 60 || words > 5 || t.endsWith('?') || t.endsWith(':')) return false;
  if (lower.startsWith('p.s') || lower.startsWith('ps ') || lower.startsWith('ps:')) return false;
  // A longer line ending in a full stop is a sentence ("Acme Inc." is not).
  if (t.endsWith('.') && wordCount(t) > 2) return false;
  const first = t[0] as string;
  return first.toUpperCase() === first;
}

/** A name under closing words: one to four words, each capitalized ("Ada Lovelace", "J. R. Doe"). */
const isName = (line: string) => {
  const words = trimChars(line.trim(), '*_-/ ').split(/\s+/);
  return (
    words.length <= 4 &&
    words.every((w) => w.length > 0 && w[0]?.toUpperCase() === w[0] && isLetterOrDash(w[0] as string))
  );
};

/**
 * "Regards,\nJohn Doe\nCEO @ Acme": closing words followed by a name and one to three title or
 * company lines is the block a signature file adds; it goes from the closing words down. With the
 * name alone below ("Thanks,\nAlex") it is the customer's sign-off and stays.
 */
function withoutTitledSignOff(lines: string[]): string[] {
  const start = Math.max(1, lines.length - 8);
  for (let i = lines.length - 3; i >= start; i--) {
    if (!isValediction(lines[i] as string)) continue;
    const below = lines.slice(i + 1).filter((l) => !isBlank(l));
    const [name, ...titles] = below;
    const signed = name !== undefined && isName(name) && titles.length >= 1 && titles.length <= 3;
    if (signed && titles.every(isTitleLine) && lines.slice(0, i).some((l) => !isBlank(l))) return lines.slice(0, i);
    return lines;
  }
  return lines;
}

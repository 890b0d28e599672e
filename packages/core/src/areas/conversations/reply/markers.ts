import { FIELD_NAMES, FORWARDS, SEPARATORS, WROTE } from './words.js';

/**
 * Recognizers for the lines mail clients put before quoted history: attribution lines ("On … wrote:"),
 * separators ("-----Original Message-----") and header blocks (Outlook's From:/Sent:/To:/Subject:).
 * Plain string work on one line or a few joined ones: no pattern that could backtrack.
 */

export type FieldRole = keyof typeof FIELD_NAMES;
const ROLE_OF = new Map<string, FieldRole>(
  (Object.entries(FIELD_NAMES) as [FieldRole, string[]][]).flatMap(([role, names]) => names.map((n) => [n, role])),
);
const SEPARATOR_SET = new Set([...SEPARATORS, ...FORWARDS]);
/** Words an attribution line starts with ("On", "Am", "Le", "El", "Op", "W dniu", "Vào", "在"…). */
const INTRO = [
  'on',
  'at',
  'am',
  'le',
  'el',
  'il',
  'op',
  'w dniu',
  'dnia',
  'den',
  'på',
  'em',
  'vào',
  'в',
  'dne',
  'kl.',
  'في',
  'wiadomość napisana przez',
];
const INTRO_CJK = ['在', '于', '於'];

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
/** A letter or digit of any script (CJK has no case, so case tests would miss it). */
const isLetter = (ch: string | undefined) => ch !== undefined && LETTER_OR_DIGIT.test(ch);
const hasDigit = (text: string) => {
  for (const ch of text) if (ch >= '0' && ch <= '9') return true;
  return false;
};
/** The text without its address-like words (`bob2@acme.test`), whose digits name no date. */
const withoutAddresses = (text: string) =>
  text
    .split(/\s+/)
    .filter((word) => !word.includes('@'))
    .join(' ');
/** A clock time (`10:30`, `9.05`) and, apart from it, a date's numbers (`12.03.2024`, `2024-03-12`, `12/3`) or a year. */
function namesDateAndTime(text: string): boolean {
  const words = text.split(/[\s,]+/);
  const isTime = (w: string) => /^\d{1,2}[:.]\d{2}(?::\d{2})?$/.test(w);
  const isDate = (w: string) => /^\d{1,4}[./-]\d{1,2}(?:[./-]\d{1,4})?\.?$/.test(w) || /^(?:19|20)\d\d\b/.test(w);
  return words.some((t, i) => isTime(t) && words.some((d, j) => j !== i && isDate(d)));
}
/** Trims the characters in `chars` from both ends. */
export function trimChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start] as string)) start++;
  while (end > start && chars.includes(text[end - 1] as string)) end--;
  return text.slice(start, end);
}
/** Bidirectional marks and zero-width spaces clients put around right-to-left lines. */
export const INVISIBLE = '\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\ufeff';
/** Decoration around the words of a marker line. */
const DECORATION = ` \t-_=*:：>${INVISIBLE}`;

export const isQuoted = (line: string) => line.trimStart().startsWith('>');
/** A line some clients quote with a bar instead ("| …"): quoted only inside announced history. */
export const isBarQuoted = (line: string) => line.trimStart().startsWith('|');
/** What a quoted line says without its markers ("> > On … wrote:" → "On … wrote:"). */
export const unquoted = (line: string) => trimChars(line.trimStart(), '> ');
export const isBlank = (line: string) => line.trim() === '';
/** A rule line: five or more symbols and nothing else ("-----", "_____", "■□■□■□", "*-*-*-"). */
/** A titled rule: "-------- Oprindelig besked --------", words between dashes. */
export const isDashedTitle = (line: string) => {
  const t = line.trim();
  return t.startsWith('--') && t.endsWith('--') && trimChars(t, '-').trim() !== '';
};
/** A rule line: five (or `min`) symbols or more and nothing else ("-----", "_____", "■□■□■□", "*-*-*-"). */
export const isRule = (line: string, min = 5) => {
  const t = line.trim();
  if (t.length < min) return false;
  for (const ch of t) if (isLetter(ch) || ch === ' ') return false;
  return true;
};

/** The role of a header field line ("From: …", "*Von:* …", "De : …"), if it is one. */
export function fieldRole(line: string): FieldRole | undefined {
  const t = trimChars(line.trimStart(), '*').trimStart();
  let colon = -1;
  for (let i = 0; i < Math.min(t.length, 40); i++) {
    if (t[i] === ':' || t[i] === '：') {
      colon = i;
      break;
    }
  }
  if (colon < 1) return undefined;
  return ROLE_OF.get(trimChars(t.slice(0, colon), ' *').toLowerCase());
}

/** True when the lower-cased text ends with an attribution verb ("wrote", "schrieb", "a écrit"…). */
function endsWithWrote(lower: string): boolean {
  const t = trimChars(lower, DECORATION);
  return WROTE.some((w) => t.endsWith(w) && !isLetter(t[t.length - w.length - 1]));
}
/** True when the verb stands anywhere in the text as words of their own ("X <x@y> schrieb am …:"). */
function containsWrote(lower: string): boolean {
  return WROTE.some((w) => {
    for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + 1))
      if (!isLetter(lower[at - 1]) && !isLetter(lower[at + w.length])) return true;
    return false;
  });
}
function startsWithIntro(lower: string): boolean {
  const t = lower.trimStart();
  return INTRO.some((w) => t.startsWith(`${w} `) || t.startsWith(`${w},`)) || INTRO_CJK.some((w) => t.startsWith(w));
}
const startsWithDate = (text: string) => {
  const ch = text.trimStart()[0];
  return ch !== undefined && ch >= '0' && ch <= '9';
};
const startsWithDashes = (text: string) => text.trimStart().startsWith('--');

/**
 * Whether the text (one line, or a few joined with spaces) is an attribution line. `quoteFollows`
 * says the next non-blank line is quoted with `>`: then a colon-ended line that names a date or an
 * address is one in any language.
 */
export function isAttribution(text: string, quoteFollows: boolean): boolean {
  const lower = trimChars(text.trim().toLowerCase(), INVISIBLE);
  if (!lower || lower.length > 400) return false;
  const at = lower.includes('@');
  const colonEnd = lower.endsWith(':') || lower.endsWith('：');
  if (endsWithWrote(lower)) {
    if (startsWithIntro(lower) && hasDigit(lower)) return true;
    if (at || startsWithDashes(lower)) return true;
    if (quoteFollows && (hasDigit(lower) || colonEnd)) return true;
  }
  if (colonEnd && at && containsWrote(lower)) return true;
  if (colonEnd && hasDigit(lower) && startsWithIntro(lower) && (at || containsWrote(lower))) return true;
  if (quoteFollows && colonEnd && (containsWrote(lower) || lower.startsWith('forwarded by '))) return true;
  // In any language: an address with a date, or a date with a time, above a quote. An address, a number or
  // a time alone is a customer quoting what they saw ("Order 4411 shows this error:", "At 10:30 it printed:").
  if (
    quoteFollows &&
    colonEnd &&
    (at ? hasDigit(withoutAddresses(lower)) : namesDateAndTime(lower)) &&
    !fieldRole(text)
  )
    return true;
  if (quoteFollows && startsWithDate(lower) && at) return true;
  // "30.09.2017, 18.30, "John Doe" <john@example.com>:", "ср, 30 апр. 2025 г. в 15:19, John <j@x.ru>:"
  if (hasDigit(lower) && (lower.endsWith('>:') || lower.endsWith('> :')) && at) return true;
  return isGmailDated(lower);
}

/** Whether a line may open a multi-line attribution (the rest wraps onto the next lines). */
export function opensAttribution(line: string): boolean {
  const lower = line.trim().toLowerCase();
  return startsLikeAttribution(lower) || (lower.includes('@') && containsWrote(lower));
}

/** Whether a line starts the way attributions do: "On …", "Am …", a date, dashes. */
export function startsLikeAttribution(line: string): boolean {
  const lower = line.trim().toLowerCase();
  return startsWithIntro(lower) || startsWithDate(lower) || startsWithDashes(lower);
}

/** Gmail's attribution without a verb: "2016-03-03 17:21 GMT+01:00 Some One <some@one.example>:". */
function isGmailDated(lower: string): boolean {
  const gmt = lower.indexOf(' gmt');
  return startsWithDate(lower) && gmt > 0 && gmt < 30 && lower.slice(0, gmt).includes(':');
}

/**
 * A separator that opens quoted or forwarded mail at line i: "-----Original Message-----" between
 * dashes, "Begin forwarded message:" with its colon, or the words alone right above a header block.
 */
export function isSeparator(lines: readonly string[], i: number): boolean {
  const t = trimChars((lines[i] ?? '').trim(), '*_');
  const words = trimChars(t, DECORATION).toLowerCase();
  if (!words || !SEPARATOR_SET.has(words)) return false;
  if (t.startsWith('--') || t.startsWith('__') || t.startsWith('==')) return true;
  if (words.includes(' ') && t.endsWith(':')) return true;
  let next = i + 1;
  while (next < lines.length && isBlank(lines[next] as string)) next++;
  return isHeaderBlock(lines, next);
}

/** Other fields on the same line, as HTML mail puts them when it lays the header out inline. */
function inlineRoles(line: string): FieldRole[] {
  const lower = line.toLowerCase();
  // A label follows a space, or runs into the previous value when a client's HTML lost its line
  // breaks ("…13:46Nadawca: …"): any character but a letter before it.
  const labelled = (name: string) => {
    for (let at = lower.indexOf(`${name}:`); at > 0; at = lower.indexOf(`${name}:`, at + 1))
      if (!LETTER.test(lower[at - 1] as string)) return true;
    return false;
  };
  return (['from', 'date', 'to', 'subject'] as const).filter((role) =>
    FIELD_NAMES[role].some((name) => name.length > 2 && labelled(name)),
  );
}

/**
 * Whether a header block of a quoted mail starts at `lines[i]`: a From field, then (blank lines and
 * one wrapped value line allowed) at least two of Sent/Date, To, Cc, Subject, or one when the From
 * names an address. Another field may come first when the block has three roles and a From.
 */
export function isHeaderBlock(lines: readonly string[], i: number): boolean {
  const first = fieldRole(lines[i] ?? '');
  if (!first) return false;
  const roles = new Set<FieldRole>([first, ...inlineRoles(lines[i] as string)]);
  let fromHasAddress = first === 'from' && (lines[i] ?? '').includes('@');
  let addressed = false;
  let loose = 0;
  for (let j = i + 1; j < lines.length && j <= i + 10; j++) {
    const line = lines[j] as string;
    if (isBlank(line)) continue;
    const role = fieldRole(line);
    if (!role) {
      if (++loose > 1) break;
      continue;
    }
    loose = 0;
    if (role === 'from') fromHasAddress ||= line.includes('@');
    addressed ||= line.includes('@');
    roles.add(role);
  }
  // A block without its From: a date with a number and an addressee with an address ("Date: …\nTo: a@b").
  if (!roles.has('from')) return first === 'date' && hasDigit(lines[i] as string) && roles.size >= 2 && addressed;
  const others = roles.size - 1;
  if (first === 'from') return others >= 2 || (others >= 1 && fromHasAddress);
  return others >= 2;
}

/**
 * Trimming by character, in one pass: a regular expression such as /-+$/ tries every start of a run
 * and takes quadratic time on a long run that does not end the text.
 */
export function trimChars(text: string, chars: string, side: 'start' | 'end' | 'both' = 'both'): string {
  let start = 0;
  let end = text.length;
  if (side !== 'end') while (start < end && chars.includes(text.charAt(start))) start++;
  if (side !== 'start') while (end > start && chars.includes(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Whether a string can be written as UTF-8 (keys, headers, URI encoding): no lone surrogate. */
export const wellFormed = (s: string) => !LONE_SURROGATE.test(s);
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The string with U+FFFD for each lone surrogate (ES2024's `toWellFormed`, which ES2023's lib lacks). */
export const toWellFormed = (s: string) => s.replace(LONE_SURROGATES, '\ufffd');

import { isBlank } from './markers.js';
import { EXTERNAL_BANNER, EXTERNAL_BANNER_ADVICE } from './words.js';

/**
 * Removes the warning a customer's mail gateway puts above their words ("CAUTION: This email
 * originated from outside of the organization. Do not click links or open attachments…"): a first
 * paragraph of at most 60 words that says the mail came from outside and warns about links,
 * attachments or the sender. "Caution: the heater overheats" is the customer's and stays.
 */
export function removeBanner(lines: readonly string[]): string[] {
  const first = lines.findIndex((l) => !isBlank(l));
  if (first < 0) return [...lines];
  let end = first;
  while (end < lines.length && !isBlank(lines[end] as string)) end++;
  const text = lines.slice(first, end).join(' ').toLowerCase();
  const words = text.split(/\s+/).length;
  const banner =
    words <= 60 &&
    EXTERNAL_BANNER.some((w) => text.includes(w)) &&
    EXTERNAL_BANNER_ADVICE.some((w) => text.includes(w));
  const rest = lines.slice(end);
  return banner && rest.some((l) => !isBlank(l)) ? rest : [...lines];
}

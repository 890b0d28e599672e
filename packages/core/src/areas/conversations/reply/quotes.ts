import {
  fieldRole,
  isAttribution,
  isBarQuoted,
  isBlank,
  isDashedTitle,
  isHeaderBlock,
  isQuoted,
  isRule,
  isSeparator,
  opensAttribution,
  startsLikeAttribution,
  trimChars,
  unquoted,
} from './markers.js';
import { removeSignature } from './signature.js';

/** How far an attribution may wrap: its first line and up to five more (blank ones included). */
const ATTRIBUTION_LINES = 6;

export interface Unquoted {
  /** The customer's lines: quoted history removed, interleaved and bottom-posted answers kept. */
  lines: string[];
  /** Whether anything was recognized as quoted history. */
  found: boolean;
}

const nextNonBlank = (lines: readonly string[], from: number) => {
  let j = from;
  while (j < lines.length && isBlank(lines[j] as string)) j++;
  return j;
};

/** Whether line i is quoted, with `>` or a bar. */
const quotedAt = (lines: readonly string[], i: number) => isQuoted(lines[i] ?? '') || isBarQuoted(lines[i] ?? '');

/**
 * A line a client wrapped out of a quote: between two quoted lines, continuing a long one (cut near
 * the wrap width) or a broken link. A short answer between short quotes is the customer's.
 */
function isWrapped(lines: readonly string[], i: number): boolean {
  const before = lines[i - 1] ?? '';
  if (!isQuoted(before) || !isQuoted(lines[i + 1] ?? '')) return false;
  const line = lines[i]?.trim() ?? '';
  return before.trim().length >= 50 || (line.length >= 10 && !line.includes(' ')) || line.endsWith('>');
}

/** The first line at or after `from` that is neither blank nor quoted. */
function nextUnquoted(lines: readonly string[], from: number) {
  let j = from;
  while (j < lines.length && (isBlank(lines[j] as string) || isQuoted(lines[j] as string))) j++;
  return j;
}

/** Whether quoted history starts at line i (or only a signature, or nothing, follows): an attribution, a separator or a header block. */
const opensHistoryAt = (lines: string[], i: number) =>
  i >= lines.length || isSeparator(lines, i) || isHeaderBlock(lines, i) || removeSignature(lines.slice(i)).length === 0;

/**
 * The attribution starting at line i, as the index after its last line; undefined if none. A line
 * that holds the answer and then the attribution ("reply On … wrote:") is split: the answer stays.
 */
function attributionAt(lines: string[], i: number): number | undefined {
  const first = lines[i] as string;
  if (isBlank(first) || isQuoted(first)) return undefined;
  const single = isAttribution(first, quotedAt(lines, nextNonBlank(lines, i + 1)));
  if (single) return i + 1;
  if (!opensAttribution(first)) return undefined;
  let joined = first.trim();
  for (let j = i + 1; j < lines.length && j < i + ATTRIBUTION_LINES; j++) {
    const line = lines[j] as string;
    // A wrapped attribution may put its last characters on a line of their own that looks quoted (">:").
    if (isQuoted(line) && !line.trim().startsWith('> wrote') && line.trim().length > 2) return undefined;
    if (isBlank(line)) continue;
    // A header field or a separator is not part of an attribution.
    if (fieldRole(line) || isSeparator(lines, j)) return undefined;
    // A line of its own that is an attribution starts there, not here.
    if (isAttribution(line, false) && startsLikeAttribution(line)) return undefined;
    joined = `${joined} ${line.trim()}`;
    if (joined.length > 400) return undefined;
    if (isAttribution(joined, quotedAt(lines, nextNonBlank(lines, j + 1)))) return j + 1;
  }
  return undefined;
}

/** Splits "reply On Wed, Apr 4, 2012 at 3:59 PM, bob@example.com wrote:" into the answer and the attribution. */
function splitSharedLine(line: string): [string, string] | undefined {
  const lower = line.toLowerCase();
  for (const marker of [' on ', '---on ', '--- on ', ' le ', ' am ', ' el ', ' op ']) {
    const at = lower.indexOf(marker);
    if (at <= 0) continue;
    const rest = line.slice(at).replace(/^[\s-]+/, '');
    const answer = line.slice(0, at);
    // The address belongs to the attribution: one before the marker means the marker is inside it.
    if (!answer.includes('@') && isAttribution(rest, false) && opensAttribution(rest))
      return [trimChars(answer, ' -'), rest];
  }
  return undefined;
}

/**
 * Removes quoted history from plain text, top to bottom: an attribution, separator or header block
 * followed by unquoted text (Outlook's and Apple's style) ends the customer's part; one followed by
 * `>` lines removes itself and those lines, and what the customer wrote after or between them stays.
 * A line wrapped out of a quote (between two quoted lines) is part of the quote.
 */
export function removeQuotes(text: string): Unquoted {
  const lines = text.split('\n');
  const kept: string[] = [];
  let found = false;
  // Inside the quote an attribution announced (until the customer writes again).
  let announced = false;
  // The end of a run of quotes already judged to be the customer's (judged once per run, not per line).
  let keptUntil = 0;
  // The announced quote the customer last answered below (where it stood in `kept`, and its lines): when
  // they go on answering between quotes (interleaved), it is the first question and comes back.
  let dropped: string[] = [];
  let droppedAt = 0;
  let answered: { at: number; lines: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (i < keptUntil) {
      kept.push(line);
      continue;
    }
    if (isQuoted(line)) {
      // Quotes no attribution announces, with the customer's text after them, are theirs: quoted to
      // answer (interleaved) or to show something. At the end, or before more history, they go.
      // A quoted attribution ("> On … wrote:") announces what follows as history too.
      const quotedAttribution = isAttribution(unquoted(line), quotedAt(lines, i + 1));
      const after = announced || quotedAttribution ? i : nextUnquoted(lines, i);
      if (!announced && !quotedAttribution && !opensHistoryAt(lines, after)) {
        if (answered) {
          kept.splice(answered.at, 0, ...answered.lines);
          answered = undefined;
        }
        keptUntil = after;
        kept.push(line);
        continue;
      }
      found = true;
      if (!announced || quotedAttribution) dropped = [];
      announced = true;
      if (!quotedAttribution) {
        if (!dropped.length) droppedAt = kept.length;
        dropped.push(line);
      }
      continue;
    }
    if (isBlank(line)) {
      kept.push('');
      continue;
    }
    if (announced && (isWrapped(lines, i) || isBarQuoted(line))) continue;
    if (isSeparator(lines, i) || isHeaderBlock(lines, i)) {
      // A rule just above (Outlook's underscores, a converted <hr>) belongs to the quote.
      const above = (l: string) => isBlank(l) || isRule(l, 3) || isDashedTitle(l);
      while (kept.length && above(kept.at(-1) as string)) kept.pop();
      return { lines: kept, found: true };
    }
    // "reply On … wrote:": the answer and the attribution share the line (not "On …, life is short. on Bob wrote:").
    const shared = startsLikeAttribution(line) ? undefined : splitSharedLine(line);
    const end = shared ? i + 1 : attributionAt(lines, i);
    if (end !== undefined) {
      if (shared) kept.push(shared[0]);
      // An address on a line of its own ("<john@example.com> kirjoitti:") continues the line above.
      else if (line.trimStart().startsWith('<') && kept.length && !isBlank(kept.at(-1) as string)) kept.pop();
      found = true;
      const quoteFollows = quotedAt(lines, nextNonBlank(lines, end));
      // An attribution with nothing above it opens a bottom-posted answer: it alone goes.
      const leading = kept.every(isBlank);
      if (!quoteFollows && !leading) return { lines: kept, found };
      announced = true;
      i = end - 1;
      continue;
    }
    if (announced && dropped.length) answered = { at: droppedAt, lines: dropped };
    dropped = [];
    announced = false;
    kept.push(line);
  }
  return { lines: kept, found };
}

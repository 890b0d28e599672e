import { escapeHtml } from '../templates/escape.js';
import { words } from '../ports/embedder.js';
import { perWord } from './memo.js';

/**
 * English function words a help-center query is full of ("how do I delete my account"): matched by
 * prefix they hit nearly every article, so they are not searched for (docs/decisions.md, Knowledge base).
 */
const STOP_WORDS = new Set(
  (
    'a about above after again all am an and any are as at be because been before being below between both but by can could did do does doing ' +
    'down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such ' +
    'than that the their theirs them themselves then there these they this those through to too under until up very was we were what when ' +
    "where which while who whom why will with would you your yours yourself yourselves s t don want wants like get can't im i'm"
  ).split(/\s+/),
);

/** The words a query searches for: folded like the index, stop words left out unless nothing else is left. */
export function queryWords(q: string): string[] {
  const all = words(q);
  const content = all.filter((w) => !STOP_WORDS.has(w));
  return content.length ? content : all;
}

/** A word as written, folded like the index (highlighting meets the same titles' and excerpts' words on every search). */
const folded = perWord((word) => words(word)[0] ?? '');

/**
 * `text` as HTML with `<em>` around each word whose index term is among `matched` (the document terms
 * the search matched), everything else escaped: the highlight of a result, as help centers show it.
 */
export function highlight(text: string, matched: ReadonlySet<string>, termOf: (word: string) => string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = folded(m[0]);
    if (!word || !matched.has(termOf(word))) continue;
    out += `${escapeHtml(text.slice(at, m.index))}<em>${escapeHtml(m[0])}</em>`;
    at = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(at));
}

import { words } from '../../kernel/ports/embedder.js';
import { escapeHtml } from '../templates/escape.js';

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

export const isStopWord = (word: string) => STOP_WORDS.has(word);

/**
 * Stop words that still say which question is asked ("how do I reset" and "why does it reset" are
 * different FAQ entries): searched, but only in titles, where an FAQ states its question; in a text
 * they occur everywhere (docs/decisions.md, Knowledge base).
 */
const QUESTION_WORDS = new Set(['how', 'what', 'why', 'when', 'where', 'which', 'who', 'whom']);

/** A query word, and whether it is searched in titles only (a question word). */
export interface QueryWord {
  word: string;
  titleOnly: boolean;
}

/**
 * The words a query searches for: folded like the index, stop words left out unless nothing else is
 * left, question words kept for titles.
 */
export function queryWords(q: string): QueryWord[] {
  const all = words(q);
  if (all.every((w) => STOP_WORDS.has(w))) return all.map((word) => ({ word, titleOnly: false }));
  return all
    .filter((word) => !STOP_WORDS.has(word) || QUESTION_WORDS.has(word))
    .map((word) => ({ word, titleOnly: STOP_WORDS.has(word) }));
}

/** A word of a text: where it stands and its index term ('' for none). */
type Token = { start: number; end: number; term: string };

/**
 * The words of each text with their index terms, per instance and term function (snapshot format):
 * the titles and excerpts of a help center are highlighted again on every search that finds them.
 */
const tokenized = new WeakMap<(word: string) => string, Map<string, Token[]>>();
const TEXTS_KEPT = 20_000;

function tokensOf(text: string, termOf: (word: string) => string): Token[] {
  let texts = tokenized.get(termOf);
  if (!texts) tokenized.set(termOf, (texts = new Map()));
  let tokens = texts.get(text);
  if (!tokens) {
    tokens = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => {
      const [word] = words(m[0]);
      return { start: m.index, end: m.index + m[0].length, term: word ? termOf(word) : '' };
    });
    if (texts.size >= TEXTS_KEPT) texts.clear();
    texts.set(text, tokens);
  }
  return tokens;
}

/**
 * `text` as HTML with `<em>` around each word whose index term is among `matched` (the document terms
 * the search matched), everything else escaped: the highlight of a result, as help centers show it.
 */
export function highlight(text: string, matched: ReadonlySet<string>, termOf: (word: string) => string): string {
  let out = '';
  let at = 0;
  for (const { start, end, term } of tokensOf(text, termOf)) {
    if (!term || !matched.has(term)) continue;
    out += `${escapeHtml(text.slice(at, start))}<em>${escapeHtml(text.slice(start, end))}</em>`;
    at = end;
  }
  return out + escapeHtml(text.slice(at));
}

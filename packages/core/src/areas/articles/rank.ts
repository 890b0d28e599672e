import type MiniSearch from 'minisearch';
import { type IndexDoc, pairTerm } from './search-snapshot.js';

/**
 * BM25F over the keyword snapshot (Robertson, Zaragoza & Taylor 2004): each query word's frequency is
 * first combined across the fields (each normalized by its own length against its own average, then
 * weighted) and only then saturated, once. A short title that shares one word with the query cannot
 * outweigh a section whose body answers every word of it, as a per-field sum with a large title boost
 * did (issue 31); a title match still counts as several body occurrences of the word.
 *
 * The constants were chosen together on five public collections of different shapes (FAQ pairs,
 * forum threads, product documentation, near-duplicate FAQs; docs/benchmarks.md, decisions.md).
 */
export const BM25F = {
  k1: 1.2,
  /**
   * Per field: weight (how many text occurrences one occurrence here is worth) and length
   * normalization. The excerpt is not a field of its own: derived from the text's start, it would
   * count those words twice.
   */
  fields: {
    title: { weight: 1.5, b: 0.75 },
    text: { weight: 1, b: 0.2 },
  },
  /** A prefix match counts this much of a whole-word match (less the longer the rest of the word). */
  prefix: 0.1,
  /** A one-typo match counts this much. */
  typo: 0.2,
  /**
   * The title is also scored on its own, saturating apart, at this weight: a question-like title the
   * query rephrases (an FAQ) is strong evidence even when the text is long.
   */
  titleAlone: 0.6,
  /** Adjacent query words found adjacent in the article (title or text): weight and length normalization. */
  pairs: { weight: 0.3, b: 0.75 },
};

type FieldName = keyof typeof BM25F.fields;
/** term -> field id -> short document id -> occurrences */
type FieldTermData = Map<number, Map<number, number>>;

/** The parts of a MiniSearch index BM25F reads (MiniSearch 7: the same data its toJSON serializes). */
interface IndexData {
  _index: {
    get(term: string): FieldTermData | undefined;
    atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
    fuzzyGet(term: string, distance: number): Map<string, [FieldTermData, number]>;
  };
  _documentCount: number;
  _documentIds: Map<number, string>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, Record<string, unknown>>;
}

export interface RankedDoc {
  id: string;
  score: number;
  /** The document terms the query matched (for highlights). */
  terms: string[];
}

/**
 * One query word: its index term, whether longer words starting with it match, and whether it may
 * match with one typo when it matches nothing as typed (a second lookup only then).
 */
export interface QueryTerm {
  term: string;
  /** Searched in titles only, and in no pair (a question word: query.ts). */
  titleOnly: boolean;
  prefix: boolean;
  typo: boolean;
}

/**
 * Ranks the documents that match any query term, best first. `keep` filters by stored fields (a
 * category). Per query term the best of its expansions (the word, its longer forms, a typo) counts.
 */
export function rankBm25f(
  index: MiniSearch<IndexDoc>,
  query: QueryTerm[],
  keep?: (stored: Record<string, unknown>) => boolean,
): RankedDoc[] {
  const data = index as unknown as IndexData;
  const fields = (Object.keys(BM25F.fields) as FieldName[]).map((name) => ({
    id: data._fieldIds[name] as number,
    ...BM25F.fields[name],
  }));
  const n = data._documentCount;
  const docs = new Map<number, { score: number; terms: Set<string> }>();

  for (const q of query) {
    const best = new Map<number, { score: number; term: string }>();
    const score = (term: string, postings: FieldTermData, weight: number) => {
      const combined = new Map<number, number>();
      for (const field of q.titleOnly ? fields.slice(0, 1) : fields) {
        const byDoc = postings.get(field.id);
        if (!byDoc) continue;
        const average = data._avgFieldLength[field.id] || 1;
        for (const [doc, tf] of byDoc) {
          const length = data._fieldLength.get(doc)?.[field.id] ?? 0;
          const normalized = tf / (1 - field.b + (field.b * length) / average);
          combined.set(doc, (combined.get(doc) ?? 0) + field.weight * normalized);
        }
      }
      const df = combined.size;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const titles = BM25F.titleAlone ? postings.get(data._fieldIds.title as number) : undefined;
      const title = fields[0] as (typeof fields)[number];
      for (const [doc, tf] of combined) {
        let s = (weight * idf * tf) / (BM25F.k1 + tf);
        const inTitle = titles?.get(doc);
        if (inTitle) {
          const length = data._fieldLength.get(doc)?.[title.id] ?? 0;
          const norm = inTitle / (1 - title.b + (title.b * length) / (data._avgFieldLength[title.id] || 1));
          s += (BM25F.titleAlone * weight * idf * norm) / (BM25F.k1 + norm);
        }
        if (s > (best.get(doc)?.score ?? 0)) best.set(doc, { score: s, term });
      }
    };
    const exact = data._index.get(q.term);
    if (exact) score(q.term, exact, 1);
    if (q.prefix)
      for (const [term, postings] of data._index.atPrefix(q.term)) {
        const rest = term.length - q.term.length;
        if (rest > 0) score(term, postings, (BM25F.prefix * term.length) / (term.length + 0.3 * rest));
      }
    if (q.typo && best.size === 0)
      for (const [term, [postings, distance]] of data._index.fuzzyGet(q.term, 1))
        if (distance > 0) score(term, postings, (BM25F.typo * term.length) / (term.length + distance));
    for (const [doc, { score: s, term }] of best) {
      const entry = docs.get(doc) ?? { score: 0, terms: new Set<string>() };
      entry.score += s;
      entry.terms.add(term);
      docs.set(doc, entry);
    }
  }

  // Phrase evidence: each pair of adjacent query words that stands as a pair in the article.
  const pairsField = data._fieldIds.pairs;
  const content = query.filter((q) => !q.titleOnly).map((q) => q.term);
  if (pairsField !== undefined && BM25F.pairs.weight > 0)
    for (let i = 1; i < content.length; i++) {
      const postings = data._index.get(pairTerm(content[i - 1] as string, content[i] as string));
      const byDoc = postings?.get(pairsField);
      if (!byDoc) continue;
      const idf = Math.log(1 + (n - byDoc.size + 0.5) / (byDoc.size + 0.5));
      const average = data._avgFieldLength[pairsField] || 1;
      for (const [doc, tf] of byDoc) {
        const entry = docs.get(doc);
        if (!entry) continue;
        const length = data._fieldLength.get(doc)?.[pairsField] ?? 0;
        const norm = tf / (1 - BM25F.pairs.b + (BM25F.pairs.b * length) / average);
        entry.score += (BM25F.pairs.weight * idf * norm) / (BM25F.k1 + norm);
      }
    }

  const ranked: RankedDoc[] = [];
  for (const [doc, { score, terms }] of docs) {
    const id = data._documentIds.get(doc);
    if (id === undefined || (keep && !keep(data._storedFields.get(doc) ?? {}))) continue;
    ranked.push({ id, score, terms: [...terms] });
  }
  return ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

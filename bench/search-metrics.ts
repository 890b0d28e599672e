import { words } from '@helpdesk/core/kernel/ports/embedder';

/** Binary-relevance measures of one ranking at cut-off 10. */
export function scoreRanking(ranked: number[], relevant: ReadonlySet<number>) {
  const top = ranked.slice(0, 10);
  const first = top.findIndex((d) => relevant.has(d));
  const dcg = top.reduce((sum, d, i) => sum + (relevant.has(d) ? 1 / Math.log2(i + 2) : 0), 0);
  let idcg = 0;
  for (let i = 0; i < Math.min(relevant.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  return {
    mrr: first < 0 ? 0 : 1 / (first + 1),
    ndcg: idcg ? dcg / idcg : 0,
    recall: top.filter((d) => relevant.has(d)).length / Math.min(relevant.size, 10),
    p1: top[0] !== undefined && relevant.has(top[0]) ? 1 : 0,
  };
}

export type Scores = ReturnType<typeof scoreRanking>;

export function meanScores(all: Scores[]): Scores {
  const mean = (pick: (s: Scores) => number) => all.reduce((sum, s) => sum + pick(s), 0) / (all.length || 1);
  return { mrr: mean((s) => s.mrr), ndcg: mean((s) => s.ndcg), recall: mean((s) => s.recall), p1: mean((s) => s.p1) };
}

/**
 * A plain BM25 (Robertson-Sparck Jones idf, k1 0.9, b 0.4: Anserini's defaults) over title and body
 * as one field, with the service's own tokenizer and nothing else: no stemming, stop words or boosts.
 */
export function bm25(docs: { title: string; body: string }[], k1 = 0.9, b = 0.4) {
  const terms = docs.map((d) => {
    const counts = new Map<string, number>();
    const tokens = words(`${d.title} ${d.body}`);
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    return { counts, length: tokens.length };
  });
  const avg = terms.reduce((s, t) => s + t.length, 0) / terms.length;
  const df = new Map<string, number>();
  for (const t of terms) for (const term of t.counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => Math.log(1 + (docs.length - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5));
  return (query: string): number[] => {
    const q = [...new Set(words(query))];
    return terms
      .map((t, id) => {
        let score = 0;
        for (const term of q) {
          const tf = t.counts.get(term);
          if (tf) score += (idf(term) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * t.length) / avg));
        }
        return { id, score };
      })
      .filter((r) => r.score > 0)
      .sort((x, y) => y.score - x.score || x.id - y.id)
      .slice(0, 10)
      .map((r) => r.id);
  };
}

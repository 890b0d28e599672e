/**
 * `npm run bench:search -- --offline`: ranking quality only, in process and in seconds: each collection
 * indexed as the indexer indexes published articles (excerpt derived from the body, Markdown read as
 * text, the snapshot's keyword options, each chunk embedded under its title), every query ranked by the
 * service's keyword and hybrid rankings, beside BM25 over the same text. For tuning; the full benchmark
 * measures keyword ranking through the API.
 */
import { fuse, keywordRanking, semanticRanking } from '@helpdesk/core/areas/articles/search';
import {
  dequantize,
  INDEX_FORMAT,
  type IndexDoc,
  keywordOptions,
  quantize,
} from '@helpdesk/core/areas/articles/search-snapshot';
import { chunkText, deriveExcerpt, markdownToText } from '@helpdesk/core/areas/articles/text';
import { embedder } from '@helpdesk/core/kernel/ports/embedder';
import MiniSearch from 'minisearch';
import type { Collection } from './search-data.js';
import { bm25, meanScores, type Scores, scoreRanking } from './search-metrics.js';

export interface OfflineQuality {
  collection: Collection;
  keyword: Scores;
  hybrid: Scores;
  baseline: Scores;
}

export async function offlineQuality(collections: Collection[]): Promise<OfflineQuality[]> {
  const out: OfflineQuality[] = [];
  const model = embedder();
  for (const collection of collections) {
    const index = new MiniSearch<IndexDoc>(keywordOptions());
    const vectors = new Map<string, { categoryId: string | null; chunks: Float32Array[] }>();
    const docs: IndexDoc[] = [];
    for (const [i, d] of collection.docs.entries()) {
      const title = d.title.slice(0, 200) || 'Untitled';
      const body = d.body.slice(0, 100_000);
      const doc: IndexDoc = {
        id: String(i),
        title,
        slug: String(i),
        excerpt: (await deriveExcerpt(body)) || null,
        categoryId: null,
        publishedAt: null,
        text: await markdownToText(body),
      };
      docs.push(doc);
      const chunks = chunkText(doc.text);
      const texts = chunks.length ? chunks.map((c) => `${title}\n\n${c}`) : [title];
      vectors.set(doc.id, {
        categoryId: null,
        chunks: (await model.embed(texts)).map((v) => dequantize(quantize(v))),
      });
    }
    index.addAll(docs);
    const snap = { keyword: index, format: INDEX_FORMAT, vectors };
    const baseline = bm25(collection.docs);
    const top = (hits: { id: string }[]) => hits.slice(0, 10).map((h) => Number(h.id));
    const keyword: Scores[] = [];
    const hybrid: Scores[] = [];
    for (const q of collection.queries) {
      const k = keywordRanking(snap, q.text, undefined);
      keyword.push(scoreRanking(top(k), q.relevant));
      hybrid.push(scoreRanking(top(fuse(k, await semanticRanking(snap, q.text, undefined))), q.relevant));
    }
    out.push({
      collection,
      keyword: meanScores(keyword),
      hybrid: meanScores(hybrid),
      baseline: meanScores(collection.queries.map((q) => scoreRanking(baseline(q.text), q.relevant))),
    });
  }
  return out;
}

import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import { embedder } from '../../kernel/ports/embedder.js';
import type { TenantContext, TenantKey } from '../../kernel/tenant.js';
import { SearchIndexState } from './entities.js';
import { highlight, queryWords } from './query.js';
import {
  dequantize,
  type IndexDoc,
  loadKeywordIndex,
  loadVectorFile,
  SnapshotMissingError,
  type StoredFields,
  snapshotKeys,
  termOf as termFor,
} from './search-snapshot.js';
import { slugOwner } from './slugs.js';

interface LoadedSnapshot {
  version: number;
  snapshotId: string;
  format: number;
  keyword: MiniSearch<IndexDoc>;
  vectors?: Map<string, { categoryId: string | null; chunks: Float32Array[] }>;
}

// Per Lambda instance: a snapshot is loaded once per version and reused by every search after it.
const loaded = new Map<string, LoadedSnapshot>();

/** Below this cosine similarity a chunk is not considered related to the query. */
const MIN_SIMILARITY = 0.1;
/** Reciprocal rank fusion constant (the usual 60): damps the weight of the very first ranks. */
const RRF_K = 60;

type Tenant = TenantKey;

async function snapshotFor(tenant: Tenant, withVectors: boolean, retried = false): Promise<LoadedSnapshot | undefined> {
  const { data: state } = await SearchIndexState.get(tenant).go();
  if (!state) return undefined;
  const cacheKey = `${tenant.projectId}#${tenant.env}`;
  try {
    let snap = loaded.get(cacheKey);
    if (!snap || snap.version < state.version) {
      const format = state.format ?? 1;
      snap = {
        version: state.version,
        snapshotId: state.snapshotId,
        format,
        keyword: await loadKeywordIndex(snapshotKeys(tenant.projectId, tenant.env, state.snapshotId).keyword, format),
      };
      loaded.set(cacheKey, snap);
    }
    if (withVectors && !snap.vectors) {
      const file = await loadVectorFile(snapshotKeys(tenant.projectId, tenant.env, snap.snapshotId).vectors);
      snap.vectors = new Map(
        Object.entries(file.docs).map(([id, d]) => [
          id,
          { categoryId: d.categoryId, chunks: d.chunks.map(dequantize) },
        ]),
      );
    }
    return snap;
  } catch (err) {
    // The snapshot was replaced twice while this search loaded it: read the state again.
    if (err instanceof SnapshotMissingError && !retried) {
      loaded.delete(cacheKey);
      return snapshotFor(tenant, withVectors, true);
    }
    throw err;
  }
}

/**
 * BM25 (MiniSearch's BM25+) over the snapshot's terms: title matches weigh 8, excerpt 2, body 1 (tuned
 * on the bench:search collections); a document matching more of the query's words scores higher, so
 * no all-words pass is needed. The query rules (docs/decisions.md, Knowledge base): stop words
 * dropped, stems matched, prefixes for words of 3 letters or more, and one typo for a word of 4 or
 * more that matches nothing as typed (typo expansion of every word cost a third of the query time
 * and found nothing better).
 */
const KEYWORD_SEARCH: SearchOptions = {
  boost: { title: 8, excerpt: 2 },
  combineWith: 'OR',
  prefix: (term) => term.length >= 3,
  fuzzy: false,
  weights: { prefix: 0.3, fuzzy: 0.2 },
};
const TYPO = (term: string) => (term.length >= 4 ? 1 : false);

interface Hit {
  id: string;
  /** The document terms the query matched (for highlights). */
  terms: string[];
}

function keywordRanking(snap: LoadedSnapshot, q: string, categoryId: string | undefined): Hit[] {
  const index = snap.keyword;
  const filter = categoryId ? (r: SearchResult) => r.categoryId === categoryId : undefined;
  const query = queryWords(q);
  if (!query.length) {
    // No query: every published article (of the category), most recently published first.
    return index
      .search(MiniSearch.wildcard, { filter })
      .sort((a, b) => String(b.publishedAt ?? '').localeCompare(String(a.publishedAt ?? '')))
      .map((r) => ({ id: String(r.id), terms: [] }));
  }
  const hits = (results: SearchResult[]) => results.map((r) => ({ id: String(r.id), terms: r.terms }));
  const exact = index.search(query.join(' '), { ...KEYWORD_SEARCH, filter });
  // Words that matched nothing as typed get one typo, in a second search only when there are any.
  const matched = new Set(exact.flatMap((r) => r.queryTerms));
  const termOf = termFor(snap.format);
  const unknown = new Set(query.filter((word) => !matched.has(termOf(word))));
  if (unknown.size === 0) return hits(exact);
  const queries = query.map((word) => ({ queries: [word], fuzzy: unknown.has(word) ? TYPO : false }));
  return hits(index.search({ combineWith: 'OR', queries }, { ...KEYWORD_SEARCH, filter }));
}

async function semanticRanking(snap: LoadedSnapshot, q: string, categoryId: string | undefined): Promise<Hit[]> {
  if (!q.trim()) return keywordRanking(snap, q, categoryId);
  const [query] = await embedder().embed([q]);
  const scored: { id: string; score: number }[] = [];
  if (!query || !snap.vectors) return [];
  for (const [id, doc] of snap.vectors) {
    if (categoryId && doc.categoryId !== categoryId) continue;
    let best = -1;
    for (const chunk of doc.chunks) {
      if (chunk.length !== query.length) continue;
      let dot = 0;
      for (let i = 0; i < chunk.length; i++) dot += (chunk[i] ?? 0) * (query[i] ?? 0);
      if (dot > best) best = dot;
    }
    if (best >= MIN_SIMILARITY) scored.push({ id, score: best });
  }
  return scored.sort((a, b) => b.score - a.score).map((s) => ({ id: s.id, terms: [] }));
}

/** Reciprocal rank fusion: robust to the two rankings' scores being on different scales. */
function fuse(...rankings: Hit[][]): Hit[] {
  const scores = new Map<string, { score: number; terms: string[] }>();
  for (const ranking of rankings) {
    for (const [rank, hit] of ranking.entries()) {
      const entry = scores.get(hit.id) ?? { score: 0, terms: [] };
      entry.score += 1 / (RRF_K + rank + 1);
      entry.terms.push(...hit.terms);
      scores.set(hit.id, entry);
    }
  }
  return [...scores.entries()].sort((a, b) => b[1].score - a[1].score).map(([id, { terms }]) => ({ id, terms }));
}

export async function searchArticles(
  ctx: TenantContext,
  query: { q: string; category?: string; mode: 'keyword' | 'semantic' | 'hybrid'; page: number; limit: number },
) {
  const empty = { results: [], query: query.q, count: 0 };
  const [snap, categoryId] = await Promise.all([
    snapshotFor(ctx, query.mode !== 'keyword'),
    query.category === undefined ? undefined : slugOwner(ctx, 'category', query.category),
  ]);
  // An unknown category slug filters everything out, like a known category without articles.
  if (!snap || (query.category !== undefined && !categoryId)) return empty;

  const ranking =
    query.mode === 'keyword'
      ? keywordRanking(snap, query.q, categoryId)
      : query.mode === 'semantic'
        ? await semanticRanking(snap, query.q, categoryId)
        : fuse(keywordRanking(snap, query.q, categoryId), await semanticRanking(snap, query.q, categoryId));

  const termOf = termFor(snap.format);
  const results = ranking.slice((query.page - 1) * query.limit, query.page * query.limit).map(({ id, terms }) => {
    const stored = snap.keyword.getStoredFields(id) as unknown as StoredFields;
    const matched = new Set(terms);
    return {
      id,
      title: stored.title,
      slug: stored.slug,
      excerpt: stored.excerpt ?? null,
      categoryId: stored.categoryId ?? null,
      publishedAt: stored.publishedAt ?? null,
      highlight: {
        title: highlight(stored.title, matched, termOf),
        excerpt: stored.excerpt ? highlight(stored.excerpt, matched, termOf) : null,
      },
    };
  });
  return { results, query: query.q, count: results.length };
}

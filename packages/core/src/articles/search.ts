import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import type { TenantContext, TenantKey } from '../auth/context.js';
import { embedder } from '../ports/embedder.js';
import { SearchIndexState } from './entities.js';
import { slugOwner } from './slugs.js';
import {
  dequantize,
  loadKeywordIndex,
  loadVectorFile,
  SnapshotMissingError,
  snapshotKeys,
  type IndexDoc,
  type StoredFields,
} from './search-snapshot.js';

interface LoadedSnapshot {
  version: number;
  snapshotId: string;
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
      snap = { version: state.version, snapshotId: state.snapshotId, keyword: await loadKeywordIndex(snapshotKeys(tenant.projectId, tenant.env, state.snapshotId).keyword) };
      loaded.set(cacheKey, snap);
    }
    if (withVectors && !snap.vectors) {
      const file = await loadVectorFile(snapshotKeys(tenant.projectId, tenant.env, snap.snapshotId).vectors);
      snap.vectors = new Map(
        Object.entries(file.docs).map(([id, d]) => [id, { categoryId: d.categoryId, chunks: d.chunks.map(dequantize) }]),
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

function keywordRanking(index: MiniSearch<IndexDoc>, q: string, categoryId: string | undefined): string[] {
  const filter = categoryId ? (r: SearchResult) => r.categoryId === categoryId : undefined;
  if (!q.trim()) {
    // No query: every published article (of the category), most recently published first.
    return index
      .search(MiniSearch.wildcard, { filter })
      .sort((a, b) => String(b.publishedAt ?? '').localeCompare(String(a.publishedAt ?? '')))
      .map((r) => String(r.id));
  }
  const options: SearchOptions = {
    boost: { title: 4, excerpt: 2 },
    prefix: true,
    // One typo per word, for words long enough that one edit still means something.
    fuzzy: (term) => (term.length >= 3 ? 1 : false),
    filter,
  };
  // Every word must match when some article has them all; otherwise any word counts.
  let combineWith: 'AND' | 'OR' = 'AND';
  let hits = index.search(q, { ...options, combineWith });
  if (hits.length === 0) hits = index.search(q, { ...options, combineWith: (combineWith = 'OR') });
  // Title matches come first whatever the body scores: the boost alone cannot promise it.
  const inTitle = new Set(index.search(q, { ...options, combineWith, fields: ['title'] }).map((r) => r.id));
  const ranked = [...hits.filter((r) => inTitle.has(r.id)), ...hits.filter((r) => !inTitle.has(r.id))];
  return ranked.map((r) => String(r.id));
}

async function semanticRanking(snap: LoadedSnapshot, q: string, categoryId: string | undefined): Promise<string[]> {
  if (!q.trim()) return keywordRanking(snap.keyword, q, categoryId);
  const [query] = await embedder().embed([q]);
  const scored: { id: string; score: number }[] = [];
  for (const [id, doc] of snap.vectors!) {
    if (categoryId && doc.categoryId !== categoryId) continue;
    let best = -1;
    for (const chunk of doc.chunks) {
      if (chunk.length !== query!.length) continue;
      let dot = 0;
      for (let i = 0; i < chunk.length; i++) dot += chunk[i]! * query![i]!;
      if (dot > best) best = dot;
    }
    if (best >= MIN_SIMILARITY) scored.push({ id, score: best });
  }
  return scored.sort((a, b) => b.score - a.score).map((s) => s.id);
}

/** Reciprocal rank fusion: robust to the two rankings' scores being on different scales. */
function fuse(...rankings: string[][]): string[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) for (const [rank, id] of ranking.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
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
      ? keywordRanking(snap.keyword, query.q, categoryId)
      : query.mode === 'semantic'
        ? await semanticRanking(snap, query.q, categoryId)
        : fuse(keywordRanking(snap.keyword, query.q, categoryId), await semanticRanking(snap, query.q, categoryId));

  const results = ranking.slice((query.page - 1) * query.limit, query.page * query.limit).map((id) => {
    const stored = snap.keyword.getStoredFields(id) as unknown as StoredFields;
    return {
      id,
      title: stored.title,
      slug: stored.slug,
      excerpt: stored.excerpt ?? null,
      categoryId: stored.categoryId ?? null,
      publishedAt: stored.publishedAt ?? null,
    };
  });
  return { results, query: query.q, count: results.length };
}

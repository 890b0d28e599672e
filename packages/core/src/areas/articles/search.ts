import MiniSearch, { type SearchResult } from 'minisearch';
import { config } from '../../kernel/config.js';
import { embedder } from '../../kernel/ports/embedder.js';
import type { TenantContext, TenantKey } from '../../kernel/tenant.js';
import { SearchIndexState } from './entities.js';
import { highlight, queryWords } from './query.js';
import { rankBm25f } from './rank.js';
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
  /** When this instance last read the index state and found this version current (epoch ms). */
  checkedAt: number;
  snapshotId: string;
  format: number;
  keyword: MiniSearch<IndexDoc>;
  vectors?: Map<string, { categoryId: string | null; chunks: Float32Array[] }>;
}

// Per Lambda instance: a snapshot is loaded once per version and reused by every search after it.
const loaded = new Map<string, LoadedSnapshot>();

/** Below this cosine similarity a chunk is not considered related to the query. */
const MIN_SIMILARITY = 0.1;

type Tenant = TenantKey;

async function snapshotFor(tenant: Tenant, withVectors: boolean, retried = false): Promise<LoadedSnapshot | undefined> {
  const cacheKey = `${tenant.projectId}#${tenant.env}`;
  const now = Date.now();
  const fresh = loaded.get(cacheKey);
  // Searches share one state read per instance a second (SEARCH_STATE_MAX_AGE_SECONDS): the index is
  // already a moment behind every write, and the read was most of a search's database time.
  if (fresh && now - fresh.checkedAt < config().searchStateMaxAgeSeconds * 1000 && (!withVectors || fresh.vectors))
    return fresh;
  const { data: state } = await SearchIndexState.get(tenant).go();
  if (!state) return undefined;
  try {
    let snap = loaded.get(cacheKey);
    if (snap && snap.version >= state.version) snap.checkedAt = now;
    if (!snap || snap.version < state.version) {
      const format = state.format ?? 1;
      snap = {
        version: state.version,
        checkedAt: now,
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

interface Hit {
  id: string;
  /** The ranking's own score (BM25F, cosine similarity); 0 where the order alone counts. */
  score: number;
  /** The document terms the query matched (for highlights). */
  terms: string[];
}

/** The keyword ranking of a query over an index (exported for the offline search benchmark). */
export function keywordRanking(
  snap: Pick<LoadedSnapshot, 'keyword' | 'format'>,
  q: string,
  categoryId: string | undefined,
): Hit[] {
  const index = snap.keyword;
  const query = queryWords(q);
  if (!query.length) {
    // No query: every published article (of the category), most recently published first.
    const filter = categoryId ? (r: SearchResult) => r.categoryId === categoryId : undefined;
    return index
      .search(MiniSearch.wildcard, { filter })
      .sort((a, b) => String(b.publishedAt ?? '').localeCompare(String(a.publishedAt ?? '')))
      .map((r) => ({ id: String(r.id), score: 0, terms: [] }));
  }
  const termOf = termFor(snap.format);
  // The query rules (docs/decisions.md, Knowledge base): stop words dropped (question words kept for
  // titles, as typed), stems matched, prefixes for words of 3 letters or more, one typo for a word of 4
  // or more that matches nothing as typed.
  const terms = query.map(({ word, titleOnly }) => {
    const term = termOf(word);
    return { term, titleOnly, prefix: !titleOnly && term.length >= 3, typo: !titleOnly && term.length >= 4 };
  });
  return rankBm25f(index, terms, categoryId ? (stored) => stored.categoryId === categoryId : undefined);
}

/** The semantic ranking: each article's best chunk by cosine similarity (exported for the offline benchmark). */
export async function semanticRanking(
  snap: Pick<LoadedSnapshot, 'keyword' | 'format' | 'vectors'>,
  q: string,
  categoryId: string | undefined,
): Promise<Hit[]> {
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
  return scored.sort((a, b) => b.score - a.score).map((s) => ({ id: s.id, score: s.score, terms: [] }));
}

/**
 * Hybrid fusion: each side's scores scaled to [0, 1] by its best and summed, the semantic side at the
 * embedder's weight. The semantic side reorders what keyword search ranks close together and adds what
 * keyword search misses, below its strong matches; it cannot undo a clear keyword win, as reciprocal
 * rank fusion did (at any weight from 0.15 to 1 it fell below keyword search on all five collections).
 */
export function fuse(keyword: Hit[], semantic: Hit[], semanticWeight = embedder().fusionWeight): Hit[] {
  const scores = new Map<string, { score: number; terms: string[] }>();
  const add = (ranking: Hit[], weight: number) => {
    const best = ranking[0]?.score || 1;
    for (const hit of ranking) {
      const entry = scores.get(hit.id) ?? { score: 0, terms: [] };
      entry.score += (weight * hit.score) / best;
      entry.terms.push(...hit.terms);
      scores.set(hit.id, entry);
    }
  };
  add(keyword, 1);
  add(semantic, semanticWeight);
  return [...scores.entries()]
    .sort((a, b) => b[1].score - a[1].score)
    .map(([id, { score, terms }]) => ({ id, score, terms }));
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

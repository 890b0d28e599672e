import { createHash, randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import type MiniSearch from 'minisearch';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { AGAIN, retrying } from '../../kernel/db/retry.js';
import { deleteObjects, putObject } from '../../kernel/ports/blob-store.js';
import { embedder } from '../../kernel/ports/embedder.js';
import type { Environment } from '../../kernel/tenant.js';
import { loadArticle } from './articles.js';
import { Article, IndexPending, NO_CATEGORY, SearchIndexState } from './entities.js';
import {
  emptyKeywordIndex,
  INDEX_FORMAT,
  type IndexDoc,
  loadKeywordIndex,
  loadVectorFile,
  quantize,
  SnapshotMissingError,
  snapshotKeys,
  type VectorFile,
} from './search-snapshot.js';
import { chunkText, markdownToText } from './text.js';

interface Tenant {
  projectId: string;
  env: Environment;
}

interface WritableSnapshot {
  snapshotId: string;
  keyword: MiniSearch<IndexDoc>;
  vectors: VectorFile;
}

/** Share of discarded documents above which the keyword index is compacted before it is stored. */
const VACUUM_AT = 0.1;

// The indexer's own copy of the latest snapshot it committed: consecutive batches skip the S3 read.
// Never shared with search, because it is mutated in place.
const committed = new Map<string, WritableSnapshot>();

async function publishedArticleIds(tenant: Tenant) {
  const { data } = await Article.query
    .byStatus({ ...tenant, status: 'published' })
    .go({ pages: 'all', attributes: ['articleId'] });
  return data.map((a) => a.articleId);
}

async function openSnapshot(tenant: Tenant, snapshotId: string | undefined, cacheKey: string) {
  const cached = committed.get(cacheKey);
  committed.delete(cacheKey);
  if (!snapshotId) return { snapshotId: '', keyword: emptyKeywordIndex(), vectors: { docs: {} } };
  if (cached?.snapshotId === snapshotId) return cached;
  const keys = snapshotKeys(tenant.projectId, tenant.env, snapshotId);
  const [keyword, vectors] = await Promise.all([loadKeywordIndex(keys.keyword), loadVectorFile(keys.vectors)]);
  return { snapshotId, keyword, vectors };
}

type Loaded = Awaited<ReturnType<typeof loadArticle>>;

/** Reads the articles, LOAD_CONCURRENCY at a time (a coalesced run may take hundreds). */
async function loadArticles(tenant: Tenant, ids: string[]): Promise<Loaded[]> {
  const out: Loaded[] = [];
  for (let i = 0; i < ids.length; i += LOAD_CONCURRENCY)
    out.push(...(await Promise.all(ids.slice(i, i + LOAD_CONCURRENCY).map((id) => loadArticle(tenant, id)))));
  return out;
}
const LOAD_CONCURRENCY = 16;

/** Brings one article's entries up to date with the table; false when nothing changed. */
async function applyArticle(snapshot: WritableSnapshot, articleId: string, found: Loaded): Promise<boolean> {
  const { keyword, vectors } = snapshot;
  if (found?.article.status !== 'published') {
    const present = keyword.has(articleId) || articleId in vectors.docs;
    if (keyword.has(articleId)) keyword.discard(articleId);
    delete vectors.docs[articleId];
    return present;
  }
  const { article } = found;
  const categoryId = article.categoryId === NO_CATEGORY ? null : article.categoryId;
  const doc: IndexDoc = {
    id: articleId,
    title: article.title,
    slug: article.slug,
    excerpt: article.excerpt || null,
    categoryId,
    publishedAt: article.publishedAt ?? null,
    text: await markdownToText(found.body),
  };
  // The title leads every chunk so each embedding knows what the passage is about.
  const chunks = chunkText(doc.text);
  const texts = chunks.length ? chunks.map((c) => `${doc.title}\n\n${c}`) : [doc.title];
  const model = embedder();
  const hash = createHash('sha256').update(model.id).update('\0').update(texts.join('\0')).digest('base64url');
  const existing = vectors.docs[articleId];
  // Indexed already as it stands (a coalesced run took it before its own message came): no new version.
  if (
    existing?.hash === hash &&
    existing.categoryId === categoryId &&
    sameStored(keyword.getStoredFields(articleId), doc)
  )
    return false;
  if (keyword.has(articleId)) keyword.replace(doc);
  else keyword.add(doc);
  if (existing?.hash === hash) existing.categoryId = categoryId;
  else vectors.docs[articleId] = { hash, categoryId, chunks: (await model.embed(texts)).map(quantize) };
  return true;
}

const STORED = ['title', 'slug', 'excerpt', 'categoryId', 'publishedAt'] as const;
const sameStored = (stored: Record<string, unknown> | undefined, doc: IndexDoc) =>
  stored !== undefined && STORED.every((f) => (stored[f] ?? null) === doc[f]);

/** Removes the pending items this run applied, unless a later request replaced one meanwhile. */
async function applied(pending: EntityItem<typeof IndexPending>[]) {
  await Promise.all(
    pending.map(async (p) => {
      try {
        await IndexPending.delete(p)
          .where((a, op) => op.eq(a.requestedAt, p.requestedAt))
          .go();
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    }),
  );
}

/**
 * Applies the current state of the given articles to the project's search snapshot and commits a
 * new version: published articles are (re)indexed and (re)embedded, others removed. Idempotent, so
 * SQS redeliveries are harmless. The articleIndex queue hands one project's messages to one batch at
 * a time (FIFO, queues/registry.ts), so versions do not race; the state item's version condition
 * still guards against a second writer (an operator's rebuild).
 */
export async function indexArticles(tenant: Tenant, articleIds: string[]) {
  const cacheKey = `${tenant.projectId}#${tenant.env}`;
  await retrying(
    async () => {
      const [{ data: state }, { data: pending }] = await Promise.all([
        SearchIndexState.get(tenant).go({ consistent: true }),
        IndexPending.query.byTenant(tenant).go({ pages: 'all' }),
      ]);
      // Every article due, not only this batch's: a burst of publishes becomes one version.
      let ids = [...new Set([...articleIds, ...pending.map((p) => p.articleId)])];
      // A snapshot of an older format is rebuilt from the table in the current one.
      const current = state && (state.format ?? 1) === INDEX_FORMAT ? state.snapshotId : undefined;
      let snapshot: WritableSnapshot;
      try {
        snapshot = await openSnapshot(tenant, current, cacheKey);
      } catch (err) {
        if (!(err instanceof SnapshotMissingError)) throw err;
        // The stored snapshot is lost: rebuild it from the table.
        snapshot = await openSnapshot(tenant, undefined, cacheKey);
      }
      if (state && snapshot.snapshotId === '') ids = [...new Set([...ids, ...(await publishedArticleIds(tenant))])];
      let changed = false;
      const loaded = await loadArticles(tenant, ids);
      for (const [i, id] of ids.entries()) changed = (await applyArticle(snapshot, id, loaded[i])) || changed;
      if (!changed) {
        if (state) committed.set(cacheKey, snapshot);
        await applied(pending);
        return undefined;
      }
      if (snapshot.keyword.dirtFactor > VACUUM_AT) await snapshot.keyword.vacuum();

      const snapshotId = `${(state?.version ?? 0) + 1}-${randomUUID()}`;
      const keys = snapshotKeys(tenant.projectId, tenant.env, snapshotId);
      await Promise.all([
        putObject(keys.keyword, JSON.stringify(snapshot.keyword), 'application/json'),
        putObject(keys.vectors, JSON.stringify(snapshot.vectors), 'application/json'),
      ]);
      try {
        if (state) {
          await SearchIndexState.patch(tenant)
            .set({
              version: state.version + 1,
              snapshotId,
              previousSnapshotId: state.snapshotId,
              format: INDEX_FORMAT,
              updatedAt: new Date().toISOString(),
            })
            .where((a, op) => op.eq(a.version, state.version))
            .go();
        } else {
          await SearchIndexState.create({ ...tenant, version: 1, snapshotId, format: INDEX_FORMAT }).go();
        }
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        await deleteObjects(Object.values(keys));
        return AGAIN;
      }
      committed.set(cacheKey, { ...snapshot, snapshotId });
      await applied(pending);
      // Searches that read the previous state may still be loading it; the one before that is free.
      if (state?.previousSnapshotId)
        await deleteObjects(Object.values(snapshotKeys(tenant.projectId, tenant.env, state.previousSnapshotId)));
      return undefined;
    },
    () => new Error(`Search snapshot of ${cacheKey} kept changing under the indexer`),
  );
}

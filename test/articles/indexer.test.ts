import { Article, IndexPending, SearchIndexState } from '@helpdesk/core/areas/articles/entities';
import { indexArticles } from '@helpdesk/core/areas/articles/search-indexer';
import { snapshotKeys } from '@helpdesk/core/areas/articles/search-snapshot';
import { deleteObjects } from '@helpdesk/core/kernel/ports/blob-store';
import { isFifo } from '@helpdesk/core/top/queues/registry';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv, testResources } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';

const app = await startTestApp();

/** Published articles the queue never heard of: only direct indexArticles calls index them. */
async function quietlyPublished(t: TenantFixture, count: number, word: string) {
  const tenant = { projectId: t.projects.main!.id, env: 'live' as const };
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body } = await app.call('POST', '/articles', {
      key: t.liveKey,
      body: { title: `Note ${i}`, body: `${word} number ${i}` },
    });
    await Article.patch({ ...tenant, articleId: body.id })
      .set({ status: 'published', publishedAt: new Date().toISOString() })
      .go();
    ids.push(body.id);
  }
  return { tenant, ids };
}

const searchIds = async (t: TenantFixture, q: string, mode = 'keyword') =>
  (
    (await app.call('GET', '/articles/search', { key: t.liveKey, query: { q, mode, limit: 100 } })).body.results as {
      id: string;
    }[]
  )
    .map((r) => r.id)
    .sort();

describe('indexArticles', () => {
  it('loses no article when indexers of one project run concurrently', async () => {
    const t = await createTenant();
    const { tenant, ids } = await quietlyPublished(t, 6, 'nebula');
    await Promise.all(ids.map((id) => indexArticles(tenant, [id])));
    expect(await searchIds(t, 'nebula')).toEqual([...ids].sort());
    expect(await searchIds(t, 'nebula', 'semantic')).toEqual([...ids].sort());
    const { data: state } = await SearchIndexState.get(tenant).go();
    expect(state!.version).toBe(6);
  }, 90_000);

  it("lets an instance's searches share one read of the index state for SEARCH_STATE_MAX_AGE_SECONDS", async () => {
    const t = await createTenant();
    const { tenant, ids } = await quietlyPublished(t, 2, 'quasar');
    await indexArticles(tenant, [ids[0]!]);
    try {
      setEnv({ SEARCH_STATE_MAX_AGE_SECONDS: '60' });
      expect(await searchIds(t, 'quasar')).toEqual([ids[0]]);
      await indexArticles(tenant, [ids[1]!]);
      // Within the age, the version this instance read stands: the new one is not looked for.
      expect(await searchIds(t, 'quasar')).toEqual([ids[0]]);
      setEnv({ SEARCH_STATE_MAX_AGE_SECONDS: '0' });
      expect(await searchIds(t, 'quasar')).toEqual([...ids].sort());
    } finally {
      setEnv({ SEARCH_STATE_MAX_AGE_SECONDS: '0' });
    }
  });

  it('rebuilds the snapshot from the table when its stored objects are gone', async () => {
    const t = await createTenant();
    const { tenant, ids } = await quietlyPublished(t, 3, 'pulsar');
    await indexArticles(tenant, ids.slice(0, 2));
    const { data: state } = await SearchIndexState.get(tenant).go();
    await deleteObjects(Object.values(snapshotKeys(tenant.projectId, tenant.env, state!.snapshotId)));

    await indexArticles(tenant, [ids[2]!]);
    expect(await searchIds(t, 'pulsar')).toEqual([...ids].sort());
  });

  it('writes nothing for a draft that was never indexed', async () => {
    const t = await createTenant();
    const { body } = await app.call('POST', '/articles', { key: t.liveKey, body: { title: 'Draft only' } });
    const tenant = { projectId: t.projects.main!.id, env: 'live' as const };
    await indexArticles(tenant, [body.id]);
    expect((await SearchIndexState.get(tenant).go()).data).toBeNull();
    expect((await app.call('GET', '/articles/search', { key: t.liveKey, query: { q: 'draft' } })).body).toEqual({
      results: [],
      query: 'draft',
      count: 0,
    });
  });
});

describe('serialized, coalesced indexing', () => {
  it('queues index work FIFO per project and environment, and indexes a burst of publishes in few versions', async () => {
    expect(isFifo('articleIndex')).toBe(true);
    expect(testResources().queueUrls.articleIndex).toMatch(/\.fifo$/);
    const t = await createTenant();
    const count = 40;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        app.call('POST', '/articles', {
          key: t.liveKey,
          body: { title: `Burst ${i}`, body: `quasar article ${i}`, status: 'published' },
        }),
      ),
    );
    await app.drain();
    expect(await searchIds(t, 'quasar')).toHaveLength(count);
    const tenant = { projectId: t.projects.main!.id, env: 'live' as const };
    const { data: state } = await SearchIndexState.get(tenant).go();
    // Every batch takes all the articles due, so the burst needs far fewer versions than articles.
    expect(state!.version).toBeLessThan(count / 2);
    // Nothing is left due.
    expect((await IndexPending.query.byTenant(tenant).go()).data).toEqual([]);
  }, 120_000);
});

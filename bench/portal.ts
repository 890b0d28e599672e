/**
 * The help center's bars (issue 32), measured on the local stack: each page type's size as sent
 * (HTML with its inline CSS, gzip as CloudFront and browsers compress it), whether it is cacheable
 * (Cache-Control, ETag, 304 on If-None-Match), and its latency under CLIENTS concurrent readers.
 */
import { gzipSync } from 'node:zlib';
import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { SEARCH_WORDS } from './load-ops.js';
import { pool } from './scale.js';
import type { Stack } from './stack.js';
import { type LoadResult, load } from './throughput.js';

export interface PageMeasure {
  name: string;
  status: number;
  bytes: number;
  gzipBytes: number;
  cacheControl: string | null;
  etag: string | null;
  revalidated: number;
}

export const PORTAL_ARTICLES = 300;
const CATEGORIES = 8;

/** A help center of PORTAL_ARTICLES published articles in CATEGORIES categories, indexed for search. */
export async function seedPortal(stack: Stack, ctx: TenantContext, count = PORTAL_ARTICLES) {
  const { createCategory } = await import('@helpdesk/core/areas/articles/categories');
  const { createArticle } = await import('@helpdesk/core/areas/articles/articles');
  const { indexArticles } = await import('@helpdesk/core/areas/articles/search-indexer');
  const categories: { id: string; slug: string }[] = [];
  for (let c = 0; c < CATEGORIES; c++)
    categories.push(
      await createCategory(ctx, { name: `${SEARCH_WORDS[c]} help`, description: `All about ${SEARCH_WORDS[c]}.` }),
    );
  const articles: { id: string; slug: string }[] = [];
  await pool(count, 16, async (i) => {
    const [a, b] = [SEARCH_WORDS[i % SEARCH_WORDS.length]!, SEARCH_WORDS[(i * 7 + 3) % SEARCH_WORDS.length]!];
    articles[i] = await createArticle(ctx, {
      title: `${a} and ${b}: guide ${i}`,
      body: `## ${a}\n\nHow to manage your ${a} and ${b} settings, step ${i}.\n\n- Open settings\n- Choose ${b}\n- Save\n\n`.repeat(
        8,
      ),
      status: 'published',
      categoryId: categories[i % CATEGORIES]!.id,
    });
  });
  await indexArticles(
    { projectId: ctx.projectId, env: ctx.env },
    articles.map((a) => a.id),
  );
  await stack.purge('articleIndex', 'webhooks');
  return { categories, articles };
}

/** Every page type once: size as sent and compressed, its caching headers, and the answer to its ETag. */
export async function measurePages(rootUrl: string, paths: Record<string, string>): Promise<PageMeasure[]> {
  const out: PageMeasure[] = [];
  for (const [name, path] of Object.entries(paths)) {
    const res = await fetch(rootUrl + path, { redirect: 'manual' });
    const body = Buffer.from(await res.arrayBuffer());
    const etag = res.headers.get('etag');
    const again = etag
      ? await fetch(rootUrl + path, { headers: { 'if-none-match': etag }, redirect: 'manual' })
      : undefined;
    await again?.arrayBuffer();
    out.push({
      name,
      status: res.status,
      bytes: body.length,
      gzipBytes: gzipSync(body).length,
      cacheControl: res.headers.get('cache-control'),
      etag,
      revalidated: again?.status ?? 0,
    });
  }
  return out;
}

/** CLIENTS readers for SECONDS over the page types (home, category, article, search), in a worker thread. */
export const loadPages = (rootUrl: string, key: string, paths: string[]): Promise<LoadResult> =>
  load('help center pages', {
    kind: 'api',
    op: 'portalPages',
    params: { paths: JSON.stringify(paths) },
    apiUrl: rootUrl,
    key,
    project: 'portal',
  });

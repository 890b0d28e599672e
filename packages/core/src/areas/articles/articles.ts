import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { paginate } from '../../kernel/api/list.js';
import { commit, put, remove, update } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantContext, TenantKey } from '../../kernel/tenant.js';
import {
  Article,
  ArticleBody,
  ArticleCategory,
  articleService,
  IndexPending,
  NO_CATEGORY,
  SlugClaim,
} from './entities.js';
import { articleIndexQueue } from './queue.js';
import type { ArticleCreateInput, ArticleUpdateInput } from './schemas.js';
import { freeSlug } from './slugs.js';

// Markdown and HTML-to-text (~200 KB bundled) load when an article is written or read in full, not
// at cold start: lists, votes and search never need them.
const text = () => import('./text.js');

type ArticleRecord = EntityItem<typeof Article>;

const keyOf = (ctx: TenantKey, articleId: string) => ({ projectId: ctx.projectId, env: ctx.env, articleId });

const categoryOut = (categoryId: string) => (categoryId === NO_CATEGORY ? null : categoryId);

export const toArticleItem = (ctx: TenantContext, a: ArticleRecord) => ({
  id: a.articleId,
  projectId: a.projectId,
  projectSlug: ctx.projectSlug,
  title: a.title,
  slug: a.slug,
  status: a.status,
  excerpt: a.excerpt || null,
  categoryId: categoryOut(a.categoryId),
  helpfulYes: a.helpfulYes,
  helpfulNo: a.helpfulNo,
  publishedAt: a.publishedAt ?? null,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

const toFullArticle = async (ctx: TenantContext, a: ArticleRecord, body: string) => ({
  ...toArticleItem(ctx, a),
  body,
  bodyHtml: (await text()).markdownToHtml(body),
});

/** The article and its body: one Query on the article's item collection. */
export async function loadArticle(tenant: TenantKey, articleId: string) {
  const { data } = await articleService.collections.article(keyOf(tenant, articleId)).go();
  const article = data.article[0];
  if (!article) return undefined;
  return { article, body: data.articleBody[0]?.body ?? '' };
}

/**
 * The article's pending search update (see IndexPending) and its index request for the indexer, items
 * of its write's transaction: published articles, and ones that just stopped being published.
 */
const indexPending = (ctx: TenantKey, articleId: string) => [
  put(IndexPending.put({ projectId: ctx.projectId, env: ctx.env, articleId, requestedAt: new Date().toISOString() })),
  outboxItem(articleIndexQueue, { projectId: ctx.projectId, env: ctx.env, articleId }),
];

const categoryMissing = () => problem('article.category_not_found');
const slugTaken = (slug: string) => problem('article.slug_taken', { slug });

export async function createArticle(ctx: TenantContext, input: ArticleCreateInput) {
  const { deriveExcerpt, slugify } = await text();
  const articleId = randomUUID();
  const body = input.body ?? '';
  const status = input.status ?? 'draft';
  const categoryId = input.categoryId ?? NO_CATEGORY;
  const given = input.excerpt ?? undefined;
  const manual = given !== undefined;
  const excerpt = given ?? (await deriveExcerpt(body)) ?? '';
  const now = new Date().toISOString();
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  let lostRaces = 0;
  const freshSlug = async () => input.slug ?? (await freeSlug(ctx, 'article', slugify(input.title), lostRaces++));
  let slug = await freshSlug();
  await commit({
    items: () => ({
      slug: put(SlugClaim.create({ ...tenant, kind: 'article', slug, ownerId: articleId })),
      article: put(
        Article.create({
          ...keyOf(ctx, articleId),
          title: input.title,
          slug,
          status,
          excerpt,
          excerptManual: manual,
          categoryId,
          ...(status === 'published' ? { publishedAt: now } : {}),
          createdAt: now,
          updatedAt: now,
        }),
      ),
      body: put(ArticleBody.create({ ...keyOf(ctx, articleId), body })),
      category:
        categoryId !== NO_CATEGORY && update(ArticleCategory.patch({ ...tenant, categoryId }).add({ articleCount: 1 })),
      index: status === 'published' && indexPending(ctx, articleId),
    }),
    refused: async (names) => {
      if (names.has('category')) throw categoryMissing();
      if (names.has('slug') && input.slug) throw slugTaken(input.slug);
      // A derived slug was claimed meanwhile: the next free one.
      slug = await freshSlug();
    },
    exhausted: () => errors.conflict('The article slug'),
  });
  return getArticle(ctx, articleId);
}

export async function getArticle(ctx: TenantContext, articleId: string) {
  const found = await loadArticle(ctx, articleId);
  if (!found) throw errors.notFound('Article');
  return toFullArticle(ctx, found.article, found.body);
}

export async function updateArticle(ctx: TenantContext, articleId: string, input: ArticleUpdateInput) {
  const { deriveExcerpt } = await text();
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const plan = async () => {
    const found = await loadArticle(ctx, articleId);
    if (!found) throw errors.notFound('Article');
    const { article: current } = found;
    const body = input.body ?? found.body;
    const status = input.status ?? current.status;
    const slug = input.slug ?? current.slug;
    const categoryId = input.categoryId === undefined ? current.categoryId : (input.categoryId ?? NO_CATEGORY);
    const manual = input.excerpt === undefined ? current.excerptManual : input.excerpt !== null;
    const excerpt = manual ? (input.excerpt ?? current.excerpt ?? '') : ((await deriveExcerpt(body)) ?? '');
    return { found, current, body, status, slug, categoryId, manual, excerpt };
  };
  let next = await plan();
  await commit({
    items: () => {
      const { found, current, body, status, slug, categoryId, manual, excerpt } = next;
      const now = new Date().toISOString();
      const slugChanged = slug !== current.slug;
      const categoryChanged = categoryId !== current.categoryId;
      return {
        article: update(
          Article.patch(keyOf(ctx, articleId))
            .set({
              title: input.title ?? current.title,
              slug,
              status,
              excerpt,
              excerptManual: manual,
              categoryId,
              // publishedAt records the first publication; unpublishing keeps it.
              ...(status === 'published' && !current.publishedAt ? { publishedAt: now } : {}),
              revision: current.revision + 1,
              updatedAt: now,
            })
            .where((a, op) => op.eq(a.revision, current.revision)),
        ),
        body: body !== found.body && put(ArticleBody.put({ ...keyOf(ctx, articleId), body })),
        slug: slugChanged && put(SlugClaim.create({ ...tenant, kind: 'article', slug, ownerId: articleId })),
        oldSlug: slugChanged && remove(SlugClaim.delete({ ...tenant, kind: 'article', slug: current.slug })),
        category:
          categoryChanged &&
          categoryId !== NO_CATEGORY &&
          update(ArticleCategory.patch({ ...tenant, categoryId }).add({ articleCount: 1 })),
        oldCategory:
          categoryChanged &&
          current.categoryId !== NO_CATEGORY &&
          update(ArticleCategory.patch({ ...tenant, categoryId: current.categoryId }).add({ articleCount: -1 })),
        index: (status === 'published' || current.status === 'published') && indexPending(ctx, articleId),
      };
    },
    refused: async (names) => {
      if (names.has('slug')) throw slugTaken(next.slug);
      if (names.has('category')) throw categoryMissing();
      // Another update won the revision race: start over from what it wrote.
      next = await plan();
    },
    exhausted: () => errors.conflict('The article'),
  });
  return getArticle(ctx, articleId);
}

export async function listArticles(
  ctx: TenantContext,
  query: { status?: 'draft' | 'published'; categoryId?: string; search?: string; page: number; limit: number },
) {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  // The most selective index for the filters given; the rest is filtered over small, body-less items.
  const { data } = query.categoryId
    ? await Article.query.byCategory({ ...tenant, categoryId: query.categoryId }).go({ pages: 'all', order: 'desc' })
    : query.status
      ? await Article.query.byStatus({ ...tenant, status: query.status }).go({ pages: 'all', order: 'desc' })
      : await Article.query.byUpdated(tenant).go({ pages: 'all', order: 'desc' });
  const needle = query.search?.trim().toLowerCase();
  const rows = data.filter(
    (a) =>
      (!query.status || a.status === query.status) &&
      (!needle || a.title.toLowerCase().includes(needle) || a.slug.includes(needle)),
  );
  const { rows: pageRows, total, page, limit } = paginate(rows, query.page, query.limit);
  return { articles: pageRows.map((a) => toArticleItem(ctx, a)), total, page, limit };
}

/** One atomic ADD: concurrent votes all count. */
export async function voteArticle(ctx: TenantContext, articleId: string, helpful: boolean) {
  try {
    const { data } = await Article.patch(keyOf(ctx, articleId))
      .add(helpful ? { helpfulYes: 1 } : { helpfulNo: 1 })
      .go({ response: 'all_new' });
    return { id: articleId, helpfulYes: data.helpfulYes ?? 0, helpfulNo: data.helpfulNo ?? 0 };
  } catch (err) {
    if (isConditionFailure(err)) throw errors.notFound('Article');
    throw err;
  }
}

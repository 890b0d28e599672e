import type { EntityItem } from 'electrodb';
import type { TenantContext } from '../../kernel/tenant.js';
import { loadArticle } from '../articles/articles.js';
import { listCategories } from '../articles/categories.js';
import { Article, NO_CATEGORY } from '../articles/entities.js';
import { slugOwner } from '../articles/slugs.js';

export type PublishedArticle = EntityItem<typeof Article>;
export type ShelfCategory = Awaited<ReturnType<typeof listCategories>>['categories'][number] & { published: number };

/**
 * What a help center holds: its categories (each with its count of published articles: the stored
 * count includes drafts) and its published articles, newest update first. Two queries in parallel, over
 * the body-less article items.
 */
export async function shelf(ctx: TenantContext) {
  const [{ categories }, { data }] = await Promise.all([
    listCategories(ctx),
    Article.query.byStatus({ projectId: ctx.projectId, env: ctx.env, status: 'published' }).go({
      pages: 'all',
      order: 'desc',
    }),
  ]);
  const articles = data.filter((a) => a.status === 'published');
  const counts = new Map<string, number>();
  for (const a of articles) counts.set(a.categoryId, (counts.get(a.categoryId) ?? 0) + 1);
  const withCounts: ShelfCategory[] = categories.map((c) => ({ ...c, published: counts.get(c.id) ?? 0 }));
  return { categories: withCounts, articles };
}

/** Most helpful first (votes yes minus no), then the newest. */
export const byHelpfulness = (a: PublishedArticle, b: PublishedArticle) =>
  b.helpfulYes - b.helpfulNo - (a.helpfulYes - a.helpfulNo) || b.updatedAt.localeCompare(a.updatedAt);

/** A published article by its slug with its body; undefined for an unknown slug or a draft. */
export async function publishedArticle(ctx: TenantContext, slug: string) {
  const articleId = await slugOwner(ctx, 'article', slug);
  const found = articleId ? await loadArticle(ctx, articleId) : undefined;
  return found?.article.status === 'published' ? found : undefined;
}

export const categoryOf = (categories: readonly ShelfCategory[], categoryId: string) =>
  categoryId === NO_CATEGORY ? undefined : categories.find((c) => c.id === categoryId);

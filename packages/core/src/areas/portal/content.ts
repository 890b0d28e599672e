import type { EntityItem } from 'electrodb';
import type { TenantContext } from '../../kernel/tenant.js';
import { loadArticle } from '../articles/articles.js';
import { listCategories } from '../articles/categories.js';
import { Article, NO_CATEGORY, SearchIndexState } from '../articles/entities.js';
import { slugOwner } from '../articles/slugs.js';
import type { FieldDef } from '../ticket-fields/definitions.js';

export type PublishedArticle = EntityItem<typeof Article>;
export type ShelfCategory = Awaited<ReturnType<typeof listCategories>>['categories'][number] & { published: number };

interface Kept {
  version: number;
  articles: PublishedArticle[];
}
// Per Lambda instance, a few hundred help centers at most: each one's published articles as of a search index version.
const kept = new Map<string, Kept>();
const MAX_KEPT = 200;

/**
 * The published articles, newest update first. The list changes exactly when the search index gets a
 * new version (the indexer takes every publish, unpublish and change of a published article), so an
 * instance keeps it per version and pays one GetItem of the index state per page instead of a query
 * over every article. Votes do not make a version: the order by helpfulness follows at the next one.
 */
async function publishedArticles(ctx: TenantContext): Promise<PublishedArticle[]> {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const { data: state } = await SearchIndexState.get(tenant).go();
  const key = `${ctx.projectId}#${ctx.env}`;
  const hit = kept.get(key);
  if (state && hit?.version === state.version) return hit.articles;
  const { data } = await Article.query.byStatus({ ...tenant, status: 'published' }).go({ pages: 'all', order: 'desc' });
  const articles = data.filter((a) => a.status === 'published');
  if (state) {
    if (!kept.has(key) && kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value ?? key);
    kept.set(key, { version: state.version, articles });
  }
  return articles;
}

/**
 * What a help center holds: its categories (each with its count of published articles: the stored
 * count includes drafts) and its published articles, newest update first.
 */
export async function shelf(ctx: TenantContext) {
  const [{ categories }, articles] = await Promise.all([listCategories(ctx), publishedArticles(ctx)]);
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

/**
 * The ticket fields the form asks for: the required ones (a ticket cannot be opened without them). The
 * others may be the team's own (a risk score, an internal reference): the public form does not show them.
 */
export const formFields = (fields: readonly FieldDef[]) => fields.filter((f) => f.required);

import { randomUUID } from 'node:crypto';
import type { TenantContext } from '../auth/context.js';
import { errors } from '../http/errors.js';
import { ArticleCategory, articleService } from './entities.js';
import type { CategoryInput } from './routes.js';
import { freeSlug, rejectedAt } from './slugs.js';
import { conflictPause, WRITE_ATTEMPTS as ATTEMPTS } from '../db/transact.js';
import { problem } from '../errors/problem.js';

type CategoryRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof ArticleCategory.get>['go']>>['data']>;


const toCategory = (c: CategoryRecord) => ({
  id: c.categoryId,
  name: c.name,
  slug: c.slug,
  description: c.description || null,
  position: c.position,
  articleCount: c.articleCount,
});

const slugTaken = (slug: string) =>
  problem('category.slug_taken', { slug });

const tenantOf = (ctx: TenantContext) => ({ projectId: ctx.projectId, env: ctx.env });

/** Ordered by position, then name. */
export async function listCategories(ctx: TenantContext) {
  const { data } = await ArticleCategory.query.byProject(tenantOf(ctx)).go({ pages: 'all' });
  data.sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
  return { categories: data.map(toCategory) };
}

export async function createCategory(ctx: TenantContext, input: CategoryInput) {
  const categoryId = randomUUID();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const slug = input.slug ?? (await freeSlug(ctx, 'category', (await import('./text.js')).slugify(input.name)));
    const result = await articleService.transaction
      .write(({ slugClaim, category }) => [
        slugClaim.create({ ...tenantOf(ctx), kind: 'category', slug, ownerId: categoryId }).commit(),
        category
          .create({
            ...tenantOf(ctx),
            categoryId,
            name: input.name,
            slug,
            ...(input.description ? { description: input.description } : {}),
            position: input.position ?? 0,
          })
          .commit(),
      ])
      .go();
    if (!result.canceled) return getCategory(ctx, categoryId);
    if (rejectedAt(result.data) === 0 && input.slug) throw slugTaken(input.slug);
    await conflictPause(attempt + 1);
  }
  throw errors.conflict('The category slug');
}

async function readCategory(ctx: TenantContext, categoryId: string) {
  const { data } = await ArticleCategory.get({ ...tenantOf(ctx), categoryId }).go();
  if (!data) throw errors.notFound('Category');
  return data;
}

const getCategory = async (ctx: TenantContext, categoryId: string) => toCategory(await readCategory(ctx, categoryId));

export async function updateCategory(ctx: TenantContext, categoryId: string, input: Partial<CategoryInput>) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await readCategory(ctx, categoryId);
    const slug = input.slug ?? current.slug;
    const slugChanged = slug !== current.slug;
    const result = await articleService.transaction
      .write(({ slugClaim, category }) => [
        category
          .patch({ ...tenantOf(ctx), categoryId })
          .set({
            name: input.name ?? current.name,
            slug,
            position: input.position ?? current.position,
            description: input.description === undefined ? (current.description ?? '') : (input.description ?? ''),
            updatedAt: new Date().toISOString(),
          })
          .where((a, op) => op.eq(a.slug, current.slug))
          .commit(),
        ...(slugChanged
          ? [
              slugClaim.create({ ...tenantOf(ctx), kind: 'category', slug, ownerId: categoryId }).commit(),
              slugClaim.delete({ ...tenantOf(ctx), kind: 'category', slug: current.slug }).commit(),
            ]
          : []),
      ])
      .go();
    if (!result.canceled) return getCategory(ctx, categoryId);
    if (rejectedAt(result.data) === 1) throw slugTaken(slug);
  }
  throw errors.conflict('The category');
}

/** Refused while articles are filed under the category: articleCount is kept in the articles' transactions. */
export async function deleteCategory(ctx: TenantContext, categoryId: string) {
  const current = await readCategory(ctx, categoryId);
  const result = await articleService.transaction
    .write(({ slugClaim, category }) => [
      category
        .delete({ ...tenantOf(ctx), categoryId })
        .where((a, op) => `${op.exists(a.categoryId)} AND ${op.eq(a.articleCount, 0)}`)
        .commit(),
      slugClaim.delete({ ...tenantOf(ctx), kind: 'category', slug: current.slug }).commit(),
    ])
    .go();
  if (result.canceled) {
    const latest = await ArticleCategory.get({ ...tenantOf(ctx), categoryId }).go();
    if (!latest.data) throw errors.notFound('Category');
    throw problem('category.not_empty', { articleCount: latest.data.articleCount });
  }
  return { deleted: true, id: categoryId };
}

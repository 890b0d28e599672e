import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { commit, put, remove, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { ArticleCategory, SlugClaim } from './entities.js';
import type { CategoryInput } from './schemas.js';
import { freeSlug } from './slugs.js';

type CategoryRecord = EntityItem<typeof ArticleCategory>;

const toCategory = (c: CategoryRecord) => ({
  id: c.categoryId,
  name: c.name,
  slug: c.slug,
  description: c.description || null,
  position: c.position,
  articleCount: c.articleCount,
});

const slugTaken = (slug: string) => problem('category.slug_taken', { slug });

const tenantOf = (ctx: TenantContext) => ({ projectId: ctx.projectId, env: ctx.env });

/** Ordered by position, then name. */
export async function listCategories(ctx: TenantContext) {
  const { data } = await ArticleCategory.query.byProject(tenantOf(ctx)).go({ pages: 'all' });
  data.sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
  return { categories: data.map(toCategory) };
}

export async function createCategory(ctx: TenantContext, input: CategoryInput) {
  const categoryId = randomUUID();
  let lostRaces = 0;
  const freshSlug = async () =>
    input.slug ?? (await freeSlug(ctx, 'category', (await import('./text.js')).slugify(input.name), lostRaces++));
  let slug = await freshSlug();
  await commit({
    items: () => ({
      slug: put(SlugClaim.create({ ...tenantOf(ctx), kind: 'category', slug, ownerId: categoryId })),
      category: put(
        ArticleCategory.create({
          ...tenantOf(ctx),
          categoryId,
          name: input.name,
          slug,
          ...(input.description ? { description: input.description } : {}),
          position: input.position ?? 0,
        }),
      ),
    }),
    refused: async (names) => {
      if (names.has('slug') && input.slug) throw slugTaken(input.slug);
      slug = await freshSlug();
    },
    exhausted: () => errors.conflict('The category slug'),
  });
  return getCategory(ctx, categoryId);
}

async function readCategory(ctx: TenantContext, categoryId: string) {
  const { data } = await ArticleCategory.get({ ...tenantOf(ctx), categoryId }).go();
  if (!data) throw errors.notFound('Category');
  return data;
}

const getCategory = async (ctx: TenantContext, categoryId: string) => toCategory(await readCategory(ctx, categoryId));

export async function updateCategory(ctx: TenantContext, categoryId: string, input: Partial<CategoryInput>) {
  let current = await readCategory(ctx, categoryId);
  await commit({
    items: () => {
      const slug = input.slug ?? current.slug;
      const slugChanged = slug !== current.slug;
      return {
        category: update(
          ArticleCategory.patch({ ...tenantOf(ctx), categoryId })
            .set({
              name: input.name ?? current.name,
              slug,
              position: input.position ?? current.position,
              description: input.description === undefined ? (current.description ?? '') : (input.description ?? ''),
              updatedAt: new Date().toISOString(),
            })
            .where((a, op) => op.eq(a.slug, current.slug)),
        ),
        slug: slugChanged && put(SlugClaim.create({ ...tenantOf(ctx), kind: 'category', slug, ownerId: categoryId })),
        oldSlug: slugChanged && remove(SlugClaim.delete({ ...tenantOf(ctx), kind: 'category', slug: current.slug })),
      };
    },
    refused: async (names) => {
      if (names.has('slug')) throw slugTaken(input.slug ?? current.slug);
      // Renamed or deleted meanwhile: read it again (a 404 once it is gone).
      current = await readCategory(ctx, categoryId);
    },
    exhausted: () => errors.conflict('The category'),
  });
  return getCategory(ctx, categoryId);
}

/** Refused while articles are filed under the category: articleCount is kept in the articles' transactions. */
export async function deleteCategory(ctx: TenantContext, categoryId: string) {
  const current = await readCategory(ctx, categoryId);
  await commit({
    items: () => ({
      category: remove(
        ArticleCategory.delete({ ...tenantOf(ctx), categoryId }).where(
          (a, op) => `${op.exists(a.categoryId)} AND ${op.eq(a.articleCount, 0)}`,
        ),
      ),
      slug: remove(SlugClaim.delete({ ...tenantOf(ctx), kind: 'category', slug: current.slug })),
    }),
    refused: async () => {
      const latest = await ArticleCategory.get({ ...tenantOf(ctx), categoryId }).go();
      if (!latest.data) throw errors.notFound('Category');
      throw problem('category.not_empty', { articleCount: latest.data.articleCount });
    },
    exhausted: () => errors.conflict('The category'),
  });
  return { deleted: true, id: categoryId };
}

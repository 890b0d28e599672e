import * as v from 'valibot';
import { defineRoute } from '../http/route.js';
import { integer, isoDateTime, pageMeta, pageQuery, uuid } from '../http/schemas.js';

export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;

/** Lowercase ASCII words joined by single dashes. */
export const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A slug names a key item (the slug claim), so it is bounded before any read. */
const SLUG_MAX = 200;
const slug = v.pipe(v.string(), v.maxLength(SLUG_MAX), v.regex(SLUG_RE, 'Use lowercase letters, digits and single dashes'));
const title = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));

const articleFields = {
  title,
  slug: v.optional(slug),
  body: v.optional(v.pipe(v.string(), v.maxLength(100_000))),
  /** null: derive it from the body. */
  excerpt: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500)))),
  categoryId: v.optional(v.nullable(uuid)),
  status: v.optional(v.picklist(ARTICLE_STATUSES)),
};

const articleCreate = v.strictObject(articleFields);
const articleUpdate = v.pipe(
  v.strictObject(v.partial(v.object(articleFields)).entries),
  v.check((body) => Object.keys(body).length > 0, 'Send at least one field to update'),
);

const articleItem = v.object({
  id: uuid,
  projectId: uuid,
  projectSlug: v.nullable(v.string()),
  title: v.string(),
  slug: v.string(),
  status: v.picklist(ARTICLE_STATUSES),
  excerpt: v.nullable(v.string()),
  categoryId: v.nullable(uuid),
  helpfulYes: integer,
  helpfulNo: integer,
  publishedAt: v.nullable(isoDateTime),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
const fullArticle = v.object({ ...articleItem.entries, body: v.string(), bodyHtml: v.string() });

const searchResult = v.object({
  id: uuid,
  title: v.string(),
  slug: v.string(),
  excerpt: v.nullable(v.string()),
  categoryId: v.nullable(uuid),
  publishedAt: v.nullable(isoDateTime),
});

const category = v.object({
  id: uuid,
  name: v.string(),
  slug: v.string(),
  description: v.nullable(v.string()),
  position: integer,
  articleCount: integer,
});
const categoryFields = {
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
  slug: v.optional(slug),
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000)))),
  position: v.optional(v.pipe(integer, v.integer(), v.minValue(0), v.maxValue(1_000_000))),
};

const articleId = { articleId: uuid };
const categoryId = { categoryId: uuid };
const common = { group: 'articles' as const, tenancy: 'project' as const, tags: ['Articles'] };

export const articleRoutes = {
  searchArticles: defineRoute({
    ...common,
    id: 'searchArticles',
    method: 'GET',
    path: '/articles/search',
    summary: 'Search published articles (keyword by default; semantic or hybrid with mode)',
    scope: 'articles:read',
    query: {
      q: v.optional(v.pipe(v.string(), v.maxLength(500)), ''),
      category: v.optional(v.pipe(v.string(), v.maxLength(SLUG_MAX))),
      mode: v.optional(v.picklist(SEARCH_MODES), 'keyword'),
      ...pageQuery({ defaultLimit: 20 }),
    },
    response: v.object({ results: v.array(searchResult), query: v.string(), count: integer }),
  }),
  listArticles: defineRoute({
    ...common,
    id: 'listArticles',
    method: 'GET',
    path: '/articles',
    summary: 'List articles including drafts, newest-updated first, bodies omitted',
    scope: 'articles:read',
    query: {
      status: v.optional(v.picklist(ARTICLE_STATUSES)),
      categoryId: v.optional(uuid),
      search: v.optional(v.string()),
      ...pageQuery(),
    },
    response: v.object({ articles: v.array(articleItem), ...pageMeta }),
  }),
  createArticle: defineRoute({
    ...common,
    id: 'createArticle',
    method: 'POST',
    path: '/articles',
    summary: 'Create an article (draft unless status is published)',
    scope: 'articles:write',
    body: articleCreate,
    response: fullArticle,
    problems: ['article.category_not_found', 'article.slug_taken'],
  }),
  getArticle: defineRoute({
    ...common,
    id: 'getArticle',
    method: 'GET',
    path: '/articles/{articleId}',
    summary: 'Get an article with its body',
    scope: 'articles:read',
    params: articleId,
    response: fullArticle,
  }),
  updateArticle: defineRoute({
    ...common,
    id: 'updateArticle',
    method: 'PATCH',
    path: '/articles/{articleId}',
    summary: 'Update, publish (status published) or unpublish (status draft) an article',
    scope: 'articles:write',
    params: articleId,
    body: articleUpdate,
    response: fullArticle,
    problems: ['article.category_not_found', 'article.slug_taken'],
  }),
  voteArticle: defineRoute({
    ...common,
    id: 'voteArticle',
    method: 'POST',
    path: '/articles/{articleId}/votes',
    summary: 'Count a helpful / not helpful vote',
    scope: 'articles:read',
    params: articleId,
    body: v.strictObject({ helpful: v.boolean() }),
    response: v.object({ id: uuid, helpfulYes: integer, helpfulNo: integer }),
  }),
  listArticleCategories: defineRoute({
    ...common,
    id: 'listArticleCategories',
    method: 'GET',
    path: '/article-categories',
    summary: 'List article categories by position',
    scope: 'articles:read',
    response: v.object({ categories: v.array(category) }),
  }),
  createArticleCategory: defineRoute({
    ...common,
    id: 'createArticleCategory',
    method: 'POST',
    path: '/article-categories',
    summary: 'Create an article category',
    scope: 'articles:write',
    body: v.strictObject(categoryFields),
    response: category,
    problems: ['category.slug_taken'],
  }),
  updateArticleCategory: defineRoute({
    ...common,
    id: 'updateArticleCategory',
    method: 'PATCH',
    path: '/article-categories/{categoryId}',
    summary: 'Update an article category',
    scope: 'articles:write',
    params: categoryId,
    body: v.pipe(
      v.strictObject(v.partial(v.object(categoryFields)).entries),
      v.check((body) => Object.keys(body).length > 0, 'Send at least one field to update'),
    ),
    response: category,
    problems: ['category.slug_taken'],
  }),
  deleteArticleCategory: defineRoute({
    ...common,
    id: 'deleteArticleCategory',
    method: 'DELETE',
    path: '/article-categories/{categoryId}',
    summary: 'Delete an article category that holds no articles',
    scope: 'articles:write',
    params: categoryId,
    response: v.object({ deleted: v.boolean(), id: uuid }),
    problems: ['category.not_empty'],
  }),
};

export type ArticleCreateInput = v.InferOutput<typeof articleCreate>;
export type ArticleUpdateInput = v.InferOutput<typeof articleUpdate>;
export type CategoryInput = v.InferOutput<v.StrictObjectSchema<typeof categoryFields, undefined>>;

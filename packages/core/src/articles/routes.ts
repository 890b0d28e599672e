import * as v from 'valibot';
import { defineRoute } from '../http/route.js';
import { integer, pageMeta, pageQuery, uuid } from '../http/schemas.js';
import { articleCreate, articleItem, articleUpdate, category, categoryFields, fullArticle, searchResult } from './schemas.js';
import { ARTICLE_STATUSES, SEARCH_MODES, SLUG_MAX } from './values.js';

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


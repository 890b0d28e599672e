import { articleRoutes } from '@helpdesk/core/areas/articles/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table): search brings MiniSearch,
// the S3 snapshot and the embedder.
const use = routeModules({
  search: () => import('@helpdesk/core/areas/articles/search'),
  articles: () => import('@helpdesk/core/areas/articles/articles'),
  categories: () => import('@helpdesk/core/areas/articles/categories'),
});

export const handler = createGroupHandler(articleRoutes, {
  searchArticles: async ({ ctx, query }) => (await use.search()).searchArticles(ctx, query),
  listArticles: async ({ ctx, query }) => (await use.articles()).listArticles(ctx, query),
  createArticle: async ({ ctx, body }) => (await use.articles()).createArticle(ctx, body),
  getArticle: async ({ ctx, params }) => (await use.articles()).getArticle(ctx, params.articleId),
  updateArticle: async ({ ctx, params, body }) => (await use.articles()).updateArticle(ctx, params.articleId, body),
  voteArticle: async ({ ctx, params, body }) => (await use.articles()).voteArticle(ctx, params.articleId, body.helpful),
  listArticleCategories: async ({ ctx }) => (await use.categories()).listCategories(ctx),
  createArticleCategory: async ({ ctx, body }) => (await use.categories()).createCategory(ctx, body),
  updateArticleCategory: async ({ ctx, params, body }) =>
    (await use.categories()).updateCategory(ctx, params.categoryId, body),
  deleteArticleCategory: async ({ ctx, params }) => (await use.categories()).deleteCategory(ctx, params.categoryId),
});

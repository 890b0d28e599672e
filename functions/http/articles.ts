import { articleRoutes } from '@helpdesk/core/articles/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';

// Each route's code loads on its first call (docs/architecture.md, One route table): search brings MiniSearch,
// the S3 snapshot and the embedder.
const search = onFirstCall(() => import('@helpdesk/core/articles/search'));
const articles = onFirstCall(() => import('@helpdesk/core/articles/articles'));
const categories = onFirstCall(() => import('@helpdesk/core/articles/categories'));

export const handler = createGroupHandler(articleRoutes, {
  searchArticles: async ({ ctx, query }) => (await search()).searchArticles(ctx, query),
  listArticles: async ({ ctx, query }) => (await articles()).listArticles(ctx, query),
  createArticle: async ({ ctx, body }) => (await articles()).createArticle(ctx, body),
  getArticle: async ({ ctx, params }) => (await articles()).getArticle(ctx, params.articleId),
  updateArticle: async ({ ctx, params, body }) => (await articles()).updateArticle(ctx, params.articleId, body),
  voteArticle: async ({ ctx, params, body }) => (await articles()).voteArticle(ctx, params.articleId, body.helpful),
  listArticleCategories: async ({ ctx }) => (await categories()).listCategories(ctx),
  createArticleCategory: async ({ ctx, body }) => (await categories()).createCategory(ctx, body),
  updateArticleCategory: async ({ ctx, params, body }) => (await categories()).updateCategory(ctx, params.categoryId, body),
  deleteArticleCategory: async ({ ctx, params }) => (await categories()).deleteCategory(ctx, params.categoryId),
});

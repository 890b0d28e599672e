import { createArticle, getArticle, listArticles, updateArticle, voteArticle } from '@helpdesk/core/articles/articles';
import { createCategory, deleteCategory, listCategories, updateCategory } from '@helpdesk/core/articles/categories';
import { articleRoutes } from '@helpdesk/core/articles/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';

// Search (MiniSearch, the S3 snapshot, the embedder) loads on the first search: `await import` makes it a chunk of its own.
export const handler = createGroupHandler(articleRoutes, {
  searchArticles: async ({ ctx, query }) => (await import('@helpdesk/core/articles/search')).searchArticles(ctx, query),
  listArticles: async ({ ctx, query }) => listArticles(ctx, query),
  createArticle: async ({ ctx, body }) => createArticle(ctx, body),
  getArticle: async ({ ctx, params }) => getArticle(ctx, params.articleId),
  updateArticle: async ({ ctx, params, body }) => updateArticle(ctx, params.articleId, body),
  voteArticle: async ({ ctx, params, body }) => voteArticle(ctx, params.articleId, body.helpful),
  listArticleCategories: async ({ ctx }) => listCategories(ctx),
  createArticleCategory: async ({ ctx, body }) => createCategory(ctx, body),
  updateArticleCategory: async ({ ctx, params, body }) => updateCategory(ctx, params.categoryId, body),
  deleteArticleCategory: async ({ ctx, params }) => deleteCategory(ctx, params.categoryId),
});

import { Entity, Service } from 'electrodb';
import { explicitTimestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { lazy } from '../../kernel/db/lazy.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { ARTICLE_STATUSES } from './values.js';

/** Stored for articles without a category, so the by-category index is never sparse. */
export const NO_CATEGORY = 'none';

const { createdAt, updatedAt } = explicitTimestamps;

/** The article without its body, so list queries read small items. */
export const Article = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'article', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          articleId: { type: 'string', required: true, readOnly: true },
          title: { type: 'string', required: true },
          slug: { type: 'string', required: true },
          status: { type: ARTICLE_STATUSES, required: true },
          excerpt: { type: 'string' },
          /** True when the excerpt was given, false when it follows the body. */
          excerptManual: { type: 'boolean', required: true, default: false },
          categoryId: { type: 'string', required: true, default: NO_CATEGORY },
          helpfulYes: { type: 'number', required: true, default: 0 },
          helpfulNo: { type: 'number', required: true, default: 0 },
          publishedAt: { type: 'string' },
          /** Optimistic lock for read-modify-write updates. */
          revision: { type: 'number', required: true, default: 1 },
          createdAt,
          updatedAt,
        },
        indexes: {
          byId: {
            collection: 'article',
            pk: { field: 'pk', composite: ['projectId', 'env', 'articleId'] },
            sk: { field: 'sk', composite: [] },
          },
          byUpdated: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env'] },
            sk: { field: 'gsi1sk', composite: ['updatedAt'] },
          },
          byStatus: {
            index: 'gsi2',
            pk: { field: 'gsi2pk', composite: ['projectId', 'env', 'status'] },
            sk: { field: 'gsi2sk', composite: ['updatedAt'] },
          },
          byCategory: {
            index: 'gsi3',
            pk: { field: 'gsi3pk', composite: ['projectId', 'env', 'categoryId'] },
            sk: { field: 'gsi3sk', composite: ['updatedAt'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** The Markdown body, in the article's item collection: GET one article is one Query. */
export const ArticleBody = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'articleBody', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          articleId: { type: 'string', required: true, readOnly: true },
          body: { type: 'string', required: true, default: '' },
        },
        indexes: {
          byId: {
            collection: 'article',
            pk: { field: 'pk', composite: ['projectId', 'env', 'articleId'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

export const ArticleCategory = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'articleCategory', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          categoryId: { type: 'string', required: true, readOnly: true },
          name: { type: 'string', required: true },
          slug: { type: 'string', required: true },
          description: { type: 'string' },
          position: { type: 'number', required: true, default: 0 },
          /** Kept by the article writes in the same transaction; a category with articles cannot be deleted. */
          articleCount: { type: 'number', required: true, default: 0 },
          createdAt,
          updatedAt,
        },
        indexes: {
          byId: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'categoryId'] },
            sk: { field: 'sk', composite: [] },
          },
          byProject: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env'] },
            sk: { field: 'gsi1sk', composite: ['categoryId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * Uniqueness claims: one item per slug per kind in a project and environment, written with a
 * conditional put so two concurrent creates cannot take the same slug.
 */
export const SlugClaim = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'slugClaim', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          kind: { type: ['article', 'category'] as const, required: true, readOnly: true },
          slug: { type: 'string', required: true, readOnly: true },
          ownerId: { type: 'string', required: true },
        },
        indexes: {
          bySlug: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'kind'] },
            sk: { field: 'sk', composite: ['slug'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * The current search snapshot of a project and environment: its version and S3 prefix. Search reads
 * this one item and reloads the snapshot only when its cached version is older.
 */
export const SearchIndexState = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'articleSearchIndex', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          version: { type: 'number', required: true },
          snapshotId: { type: 'string', required: true },
          /** Kept one version longer, for searches that read the state just before the swap. */
          previousSnapshotId: { type: 'string' },
          /** The keyword index's term processing (search-snapshot.ts INDEX_FORMAT); absent: format 1. */
          format: { type: 'number' },
          updatedAt,
        },
        indexes: {
          byTenant: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * Articles whose search entries are due, per project and environment: written in the article's own
 * transaction, so no change is lost; the indexer takes all of them at once (coalescing a burst of
 * publishes into one snapshot version) and removes the ones it applied.
 */
export const IndexPending = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'articleIndexPending', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          articleId: { type: 'string', required: true, readOnly: true },
          /** The request's time: the indexer removes the item only if no later request replaced it. */
          requestedAt: { type: 'string', required: true },
        },
        indexes: {
          byTenant: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['articleId'] },
          },
        },
      },
      entityConfig(),
    ),
);

export const articleService = lazy(
  () =>
    new Service(
      { article: Article, articleBody: ArticleBody, category: ArticleCategory, slugClaim: SlugClaim },
      entityConfig(),
    ),
);

import * as v from 'valibot';
import { integer, isoDateTime, lineText, maxChars, patchBody, uuid } from '../../kernel/api/schemas.js';
import { ARTICLE_STATUSES, SLUG_MAX, SLUG_RE } from './values.js';

/** An article's or category's slug; also the form GET /articles/search's `category` must have to match one. */
export const slug = v.pipe(
  v.string(),
  v.maxLength(SLUG_MAX),
  v.regex(SLUG_RE, 'Use lowercase letters, digits and single dashes'),
  v.metadata({ examples: ['getting-started'] }),
);
const title = lineText(200);

const articleFields = {
  title,
  slug: v.optional(slug),
  body: v.optional(v.pipe(v.string(), v.maxLength(100_000))),
  /** null: derive it from the body. */
  excerpt: v.optional(v.nullable(v.pipe(v.string(), maxChars(500)))),
  categoryId: v.optional(v.nullable(uuid)),
  status: v.optional(v.picklist(ARTICLE_STATUSES)),
};

export const articleCreate = v.strictObject(articleFields);
export const articleUpdate = patchBody(v.partial(v.object(articleFields)).entries, 'Send at least one field to update');

export const articleItem = v.object({
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
export const fullArticle = v.object({ ...articleItem.entries, body: v.string(), bodyHtml: v.string() });

export const searchResult = v.object({
  id: uuid,
  title: v.string(),
  slug: v.string(),
  excerpt: v.nullable(v.string()),
  categoryId: v.nullable(uuid),
  publishedAt: v.nullable(isoDateTime),
  /** Title and excerpt as HTML: escaped, with `<em>` around the words the query matched. */
  highlight: v.object({ title: v.string(), excerpt: v.nullable(v.string()) }),
});

export const category = v.object({
  id: uuid,
  name: v.string(),
  slug: v.string(),
  description: v.nullable(v.string()),
  position: integer,
  articleCount: integer,
});
export const categoryFields = {
  name: lineText(100),
  slug: v.optional(slug),
  description: v.optional(v.nullable(v.pipe(v.string(), maxChars(1000)))),
  position: v.optional(v.pipe(integer, v.integer(), v.minValue(0), v.maxValue(1_000_000))),
};

export type ArticleCreateInput = v.InferOutput<typeof articleCreate>;
export type ArticleUpdateInput = v.InferOutput<typeof articleUpdate>;
export type CategoryInput = v.InferOutput<v.StrictObjectSchema<typeof categoryFields, undefined>>;

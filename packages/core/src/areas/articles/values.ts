/** The knowledge base's vocabulary, shared by schemas, entities and the console. */
export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;

/** Lowercase ASCII words joined by single dashes. */
export const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A slug names a key item (the slug claim), so it is bounded before any read. */
export const SLUG_MAX = 200;

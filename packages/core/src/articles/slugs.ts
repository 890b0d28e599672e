import type { TenantContext } from '../auth/context.js';
import { SlugClaim } from './entities.js';

export type SlugKind = 'article' | 'category';

/**
 * The first free slug among `base`, `base-2`, `base-3`, ... as the claims stand now (one Query). The
 * caller's conditional claim is what makes it safe; on a lost race it asks again.
 */
export async function freeSlug(ctx: TenantContext, kind: SlugKind, base: string): Promise<string> {
  const { data } = await SlugClaim.query
    .bySlug({ projectId: ctx.projectId, env: ctx.env, kind })
    .begins({ slug: base })
    .go({ pages: 'all', attributes: ['slug'] });
  const taken = new Set(data.map((c) => c.slug));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** The id holding a slug, or undefined (one GetItem). */
export async function slugOwner(ctx: TenantContext, kind: SlugKind, slug: string): Promise<string | undefined> {
  const { data } = await SlugClaim.get({ projectId: ctx.projectId, env: ctx.env, kind, slug }).go();
  return data?.ownerId;
}

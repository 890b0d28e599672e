import { randomBytes } from 'node:crypto';
import type { TenantContext } from '../../kernel/tenant.js';
import { SlugClaim } from './entities.js';

export type SlugKind = 'article' | 'category';

/** Lost races after which a derived slug takes a random suffix instead of the next number. */
const RACES_BEFORE_RANDOM = 2;

/**
 * The first free slug among `base`, `base-2`, `base-3`, ... as the claims stand now (one Query). The
 * caller's conditional claim is what makes it safe; on a lost race it asks again, and after
 * RACES_BEFORE_RANDOM lost races (many articles of one title created at once, as an import does) it
 * takes `base-<random>`, so every writer finishes.
 */
export async function freeSlug(ctx: TenantContext, kind: SlugKind, base: string, lostRaces = 0): Promise<string> {
  if (lostRaces >= RACES_BEFORE_RANDOM) return `${base.slice(0, 80)}-${randomBytes(3).toString('hex')}`;
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

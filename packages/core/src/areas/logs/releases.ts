import { isConditionFailure } from '../../kernel/db/errors.js';
import type { TenantKey } from '../../kernel/tenant.js';
import { LogRelease, LogReleaseCounter } from './entities.js';

/**
 * Releases in the order a project first saw them. A release's `seq` is given once (a counter, then a
 * conditional put: of two consumers seeing a new release at once, one writes it and the other reads it)
 * and kept per consumer instance, since it never changes.
 */
const known = new Map<string, number>();
const MAX_KNOWN = 10_000;
const keyOf = (t: TenantKey, release: string) => `${t.projectId}\n${t.env}\n${release}`;

/** The release's place in the project's order, giving it the next one when it is new. */
export async function releaseSeq(tenant: TenantKey, release: string): Promise<number> {
  const cached = known.get(keyOf(tenant, release));
  if (cached !== undefined) return cached;
  const seq = (await seenSeq(tenant, release)) ?? (await register(tenant, release));
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(keyOf(tenant, release), seq);
  return seq;
}

/** The release's place when the project has seen it (nothing is written). */
export async function seenSeq(tenant: TenantKey, release: string): Promise<number | undefined> {
  const { data } = await LogRelease.get({ projectId: tenant.projectId, env: tenant.env, release }).go();
  return data?.seq;
}

/** The last place given: every release seen so far is at or before it. */
export async function lastSeq(tenant: TenantKey): Promise<number> {
  const { data } = await LogReleaseCounter.get({ projectId: tenant.projectId, env: tenant.env }).go();
  return data?.lastSeq ?? 0;
}

async function register(tenant: TenantKey, release: string): Promise<number> {
  const { data } = await LogReleaseCounter.update({ projectId: tenant.projectId, env: tenant.env })
    .add({ lastSeq: 1 })
    .go({ response: 'updated_new' });
  const seq = data.lastSeq ?? 1;
  try {
    await LogRelease.create({
      projectId: tenant.projectId,
      env: tenant.env,
      release,
      seq,
      firstSeenAt: new Date().toISOString(),
    }).go();
    return seq;
  } catch (err) {
    // Another consumer registered it first: its place stands (this one's number stays unused).
    if (!isConditionFailure(err)) throw err;
    return (await seenSeq(tenant, release)) ?? seq;
  }
}

/**
 * The project's releases first seen since `since` (ISO), oldest first: the order index read newest
 * first, a page at a time, until a release older than that.
 */
export async function releasesSince(tenant: TenantKey, since: string) {
  const found: { release: string; firstSeenAt: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: { release: string; firstSeenAt?: string }[]; cursor: string | null } = await LogRelease.query
      .inOrder({ projectId: tenant.projectId, env: tenant.env })
      .go({ order: 'desc', limit: 50, ...(cursor ? { cursor } : {}) });
    for (const r of page.data) {
      // Releases registered before first sightings were kept have no time: older than any chart.
      if (r.firstSeenAt === undefined || r.firstSeenAt < since) return found.reverse();
      found.push({ release: r.release, firstSeenAt: r.firstSeenAt });
    }
    cursor = page.cursor;
  } while (cursor);
  return found.reverse();
}

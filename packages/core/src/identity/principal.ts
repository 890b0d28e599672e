import { logger } from '../kernel/logger.js';
import type { Principal } from '../kernel/tenant.js';
import { loadTenant } from './accounts.js';
import { ApiKey } from './entities.js';
import { hashKey, keyEnvironment } from './keys.js';
import { allowancesFor } from './plans.js';
import { projectRefOf } from './tenant.js';

/**
 * Keys are cached in the Lambda's memory for at most this long, so a revoked key stops working
 * within a minute without costing a read on every request.
 */
export const KEY_CACHE_TTL_MS = 30_000;
const MAX_CACHED_KEYS = 1_000;

const cache = new Map<string, { principal: Principal | null; expires: number }>();

export const clearPrincipalCache = () => cache.clear();

/**
 * Records the key's last use. It runs only when a Lambda loads the key (at most once per cache period
 * per instance), beside the tenant read, so a steady stream of requests costs no write; a failure to
 * record it never fails the request.
 */
async function touch(hash: string) {
  try {
    await ApiKey.patch({ keyHash: hash }).set({ lastUsedAt: new Date().toISOString() }).go({ response: 'none' });
  } catch (error) {
    logger.warn("Could not record the key's last use", { error: error as Error });
  }
}

/** What a caller may start as soon as the key is known to be live, beside the tenant read (the rate count). */
export type OnKeyRead = (key: { keyId: string; rateLimit: number }) => void;

async function load(hash: string, onKeyRead?: OnKeyRead): Promise<Principal | null> {
  const { data: key } = await ApiKey.get({ keyHash: hash }).go();
  if (!key || key.revokedAt) return null;
  onKeyRead?.(key);
  const [{ account, projects }] = await Promise.all([loadTenant(key.accountId), touch(hash)]);
  if (!account) return null;
  const allowed = key.projectIds;
  const reachable = allowed ? projects.filter((p) => allowed.includes(p.projectId)) : projects;
  return {
    keyId: key.keyId,
    accountId: key.accountId,
    accountName: account.name,
    plan: account.plan,
    allowances: allowancesFor(account.plan, account.limits),
    keyEnv: key.env,
    scopes: key.scopes,
    allowIps: key.allowIps,
    rateLimit: key.rateLimit,
    reachesAllProjects: !allowed,
    projects: reachable.map(projectRefOf).sort((a, b) => a.slug.localeCompare(b.slug)),
  };
}

/**
 * The principal behind a bearer secret, or null for an unknown, malformed or revoked key. `onKeyRead`
 * runs only when the key is read from the table (not on a cache hit), once it is known to be live.
 */
export async function resolvePrincipal(
  secret: string,
  now = Date.now(),
  onKeyRead?: OnKeyRead,
): Promise<Principal | null> {
  if (!keyEnvironment(secret)) return null;
  const hash = hashKey(secret);
  const hit = cache.get(hash);
  if (hit && hit.expires > now) return hit.principal;
  const principal = await load(hash, onKeyRead);
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value ?? hash);
  cache.set(hash, { principal, expires: now + KEY_CACHE_TTL_MS });
  return principal;
}

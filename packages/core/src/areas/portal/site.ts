import { loadTenant } from '../../identity/accounts.js';
import { tenantContextOf } from '../../identity/tenant.js';
import { isExpired } from '../../kernel/db/client.js';
import type { PortalSettings, TenantContext } from '../../kernel/tenant.js';
import { PortalHandle } from './entities.js';
import { HANDLE_RE } from './values.js';

/** A help center being shown: its handle, its settings, and the project's live environment. */
export interface Site {
  handle: string;
  name: string;
  settings: PortalSettings;
  /** Always the live environment: sandbox content is never shown on a portal. */
  ctx: TenantContext;
}

export type Resolved = { site: Site } | { movedTo: string } | undefined;

/** Renames in a row a redirect follows (an old handle names the next; each one still redirects for 90 days). */
const MAX_HOPS = 5;

const current = async (handle: string) => {
  const { data } = await PortalHandle.get({ handle }).go();
  return data && !isExpired(data.expiresAt) ? data : undefined;
};

/**
 * Sites resolved by this instance, for SITE_TTL_MS: two reads a page fewer. A change of settings shows
 * at once on the instance that made it (settings.ts forgets them) and within SITE_TTL_MS elsewhere.
 */
export const SITE_TTL_MS = 10_000;
const MAX_SITES = 500;
const sites = new Map<string, { resolved: Resolved; at: number }>();

export const forgetSites = () => sites.clear();

/**
 * The help center a handle names: its site, the handle it moved to (a 301), or undefined: no such
 * handle, a handle expired, a portal turned off, or a project gone. All of these look the same outside.
 */
export async function resolveSite(handle: string, now = Date.now()): Promise<Resolved> {
  if (!HANDLE_RE.test(handle)) return undefined;
  const hit = sites.get(handle);
  if (hit && now - hit.at < SITE_TTL_MS) return hit.resolved;
  const resolved = await lookUp(handle);
  if (!sites.has(handle) && sites.size >= MAX_SITES) sites.delete(sites.keys().next().value ?? handle);
  sites.set(handle, { resolved, at: now });
  return resolved;
}

async function lookUp(handle: string): Promise<Resolved> {
  const found = await current(handle);
  if (!found) return undefined;
  if (!found.movedTo) return siteOf(handle, found);
  // An old handle leads to its own project's current help center, and only while that one is on: a
  // handle taken since by another project, a portal turned off or a chain too long is the 404.
  let at = found;
  for (let hops = 0; at.movedTo && hops < MAX_HOPS; hops++) {
    const next = await current(at.movedTo);
    if (!next || next.projectId !== found.projectId) return undefined;
    if (!next.movedTo) return (await siteOf(at.movedTo, next)) ? { movedTo: at.movedTo } : undefined;
    at = next;
  }
  return undefined;
}

async function siteOf(
  handle: string,
  found: { accountId: string; projectId: string },
): Promise<{ site: Site } | undefined> {
  const { account, projects } = await loadTenant(found.accountId);
  const project = projects.find((p) => p.projectId === found.projectId);
  const settings = project?.portal;
  // The handle item and the project's settings are written together; both must agree.
  if (!account || !project || !settings?.enabled || settings.handle !== handle) return undefined;
  return { site: { handle, name: project.name, settings, ctx: tenantContextOf(account, project, 'live') } };
}

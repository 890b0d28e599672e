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
 * The help center a handle names: its site, the handle it moved to (a 301), or undefined: no such
 * handle, a handle expired, a portal turned off, or a project gone. All of these look the same outside.
 */
export async function resolveSite(handle: string): Promise<Resolved> {
  if (!HANDLE_RE.test(handle)) return undefined;
  let found = await current(handle);
  for (let hops = 0; found?.movedTo && hops < MAX_HOPS; hops++) {
    const next = await current(found.movedTo);
    if (!next) return undefined;
    if (!next.movedTo) return { movedTo: found.movedTo };
    found = next;
  }
  if (!found || found.movedTo) return undefined;
  const { account, projects } = await loadTenant(found.accountId);
  const project = projects.find((p) => p.projectId === found.projectId);
  const settings = project?.portal;
  // The handle item and the project's settings are written together; both must agree.
  if (!account || !project || !settings?.enabled || settings.handle !== handle) return undefined;
  return { site: { handle, name: project.name, settings, ctx: tenantContextOf(account, project, 'live') } };
}

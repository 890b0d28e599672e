import { Project } from '../../identity/entities.js';
import { clearPrincipalCache } from '../../identity/principal.js';
import { ttlIn } from '../../kernel/db/client.js';
import { commit, put, remove, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { PortalSettings, Principal } from '../../kernel/tenant.js';
import { PortalHandle } from './entities.js';
import { portalViewOf } from './present.js';
import type { ProjectPatch } from './schemas.js';
import { forgetSites } from './site.js';
import { HANDLE_REDIRECT_DAYS } from './values.js';

/** The stored settings after a patch: a null clears a setting, an absent one keeps it. */
function merged(current: PortalSettings, patch: ProjectPatch['portal']): PortalSettings {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return next as PortalSettings;
}

/**
 * PATCH /projects/{projectId}: the portal's settings. A new handle is claimed in the same transaction
 * as the project's write (unique across the service: another project's handle, current or still
 * redirecting, is refused); the old one then redirects to it for HANDLE_REDIRECT_DAYS, or is freed at
 * once when the handle is cleared.
 */
export async function updateProject(principal: Principal, projectId: string, patch: ProjectPatch) {
  const accountId = principal.accountId;
  if (!principal.projects.some((p) => p.id === projectId)) throw errors.notFound('Project');
  const load = async () => {
    const { data } = await Project.get({ accountId, projectId }).go();
    if (!data) throw errors.notFound('Project');
    return data;
  };
  let current = await load();
  let next: PortalSettings = {};
  await commit({
    items: () => {
      const before = current.portal ?? {};
      next = merged(before, patch.portal);
      if (next.enabled && !next.handle)
        throw errors.validation([
          { field: 'portal.enabled', in: 'body', message: 'A portal needs a handle before it can be turned on' },
        ]);
      const moved = before.handle !== next.handle;
      const now = Date.now();
      const claim = next.handle;
      return {
        project: update(
          Project.patch({ accountId, projectId })
            .set({ portal: next })
            .where((a, op) => op.eq(a.updatedAt, current.updatedAt)),
        ),
        // Free, this project's own (an old handle taken back), or expired but not yet swept by TTL.
        handle:
          moved &&
          claim !== undefined &&
          put(
            PortalHandle.put({ handle: claim, accountId, projectId }).where(
              (a, op) =>
                `${op.notExists(a.handle)} OR ${op.eq(a.projectId, projectId)} OR ${op.lt(a.expiresAt, Math.floor(now / 1000))}`,
            ),
          ),
        oldHandle:
          moved &&
          before.handle !== undefined &&
          (claim
            ? update(
                PortalHandle.update({ handle: before.handle }).set({
                  accountId,
                  projectId,
                  movedTo: claim,
                  expiresAt: ttlIn(HANDLE_REDIRECT_DAYS * 86_400, now),
                }),
              )
            : remove(PortalHandle.delete({ handle: before.handle }))),
      };
    },
    refused: async (names) => {
      if (names.has('handle')) throw problem('portal.handle_taken', { handle: next.handle ?? '' });
      // The project changed meanwhile (or its old handle item went): start over from what is stored now.
      current = await load();
    },
    exhausted: () => errors.conflict('The project'),
  });
  // This instance's cached keys and sites show the new settings at once; others within their cache periods.
  clearPrincipalCache();
  forgetSites();
  return { id: projectId, slug: current.slug, name: current.name, portal: portalViewOf(next) };
}

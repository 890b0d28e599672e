import { emailListMigration } from '@helpdesk/core/areas/emails/entities';
import { ticketListMigration } from '@helpdesk/core/areas/tickets/entities';
import {
  addMember,
  createAccount,
  createProject,
  listMembers,
  loadTenant,
  reindexProjects,
} from '@helpdesk/core/identity/accounts';
import { createApiKey } from '@helpdesk/core/identity/keys';
import { reindexLists } from '@helpdesk/core/kernel/db/list-reindex';

/**
 * The demo tenant: account (plan pro) with projects demo and docs. Keys are hashed at rest and so can
 * never be shown again: every start mints a fresh live and sandbox key and prints them.
 */
export const DEMO_ADMIN = 'admin@demo.example';

export async function seedDemo(existingAccountId?: string) {
  // Data kept from an older version: projects, tickets and emails get the indexes added since (cheap on a local table).
  await reindexProjects();
  for (const lists of [ticketListMigration, emailListMigration]) await reindexLists(lists, { dropLegacy: true });
  let accountId = existingAccountId;
  if (!accountId || !(await loadTenant(accountId)).account) {
    const account = await createAccount({ name: 'Demo', plan: 'pro' });
    accountId = account.accountId;
    await createProject({ accountId, slug: 'demo', name: 'Demo' });
    await createProject({ accountId, slug: 'docs', name: 'Docs' });
  }
  // The console's demo admin: sign in at /console with this address, the link arrives in the mail viewer.
  if (!(await listMembers(accountId)).some((m) => m.email === DEMO_ADMIN)) {
    await addMember({ accountId, email: DEMO_ADMIN, name: 'Demo Admin', role: 'admin' });
  }
  const live = await createApiKey({ accountId, env: 'live' });
  const sandbox = await createApiKey({ accountId, env: 'sandbox' });
  return { accountId, liveKey: live.key, sandboxKey: sandbox.key, adminEmail: DEMO_ADMIN };
}

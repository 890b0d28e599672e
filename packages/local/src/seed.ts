import { createAccount, createProject, loadTenant } from '@helpdesk/core/auth/accounts';
import { createApiKey } from '@helpdesk/core/auth/keys';

/**
 * The demo tenant: account (plan pro) with projects demo and docs. Keys are hashed at rest and so can
 * never be shown again: every start mints a fresh live and sandbox key and prints them.
 */
export async function seedDemo(existingAccountId?: string) {
  let accountId = existingAccountId;
  if (!accountId || !(await loadTenant(accountId)).account) {
    const account = await createAccount({ name: 'Demo', plan: 'pro' });
    accountId = account.accountId;
    await createProject({ accountId, slug: 'demo', name: 'Demo' });
    await createProject({ accountId, slug: 'docs', name: 'Docs' });
  }
  const live = await createApiKey({ accountId, env: 'live' });
  const sandbox = await createApiKey({ accountId, env: 'sandbox' });
  return { accountId, liveKey: live.key, sandboxKey: sandbox.key };
}

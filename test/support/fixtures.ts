import { randomBytes } from 'node:crypto';
import { addMember, createAccount, createProject, setAccountLimits } from '@helpdesk/core/identity/accounts';
import { type CreateKeyInput, createApiKey } from '@helpdesk/core/identity/keys';
import type { Allowances, Plan } from '@helpdesk/core/kernel/tenant';

export interface TenantFixture {
  accountId: string;
  projects: Record<string, { id: string; slug: string; name: string }>;
  /** A live key reaching every project, full access. */
  liveKey: string;
  /** A sandbox key reaching every project, full access. */
  sandboxKey: string;
  /** Mints another key for this account. */
  key(options?: Partial<Omit<CreateKeyInput, 'accountId' | 'projectIds'>> & { projects?: string[] }): Promise<string>;
  member(input?: {
    email?: string;
    name?: string;
    role?: 'admin' | 'agent';
  }): Promise<{ memberId: string; email: string }>;
}

/**
 * An account with projects and keys, made the way the admin CLI makes them. Slugs default to one
 * project, `main`; keys minted with `projects` reach only those slugs.
 */
export async function createTenant(
  options: { plan?: Plan; projects?: string[]; limits?: Partial<Allowances> } = {},
): Promise<TenantFixture> {
  const account = await createAccount({ name: `Test ${randomBytes(3).toString('hex')}`, plan: options.plan ?? 'pro' });
  if (options.limits) await setAccountLimits(account.accountId, options.limits);
  const projects: TenantFixture['projects'] = {};
  for (const slug of options.projects ?? ['main']) {
    const p = await createProject({ accountId: account.accountId, slug, name: slug });
    projects[slug] = { id: p.projectId, slug, name: p.name };
  }
  const key: TenantFixture['key'] = async (opts = {}) => {
    const { projects: slugs, ...rest } = opts;
    const created = await createApiKey({
      accountId: account.accountId,
      env: rest.env ?? 'live',
      ...rest,
      ...(slugs ? { projectIds: slugs.map((s) => projects[s]!.id) } : {}),
    });
    return created.key;
  };
  return {
    accountId: account.accountId,
    projects,
    liveKey: await key({ env: 'live' }),
    sandboxKey: await key({ env: 'sandbox' }),
    key,
    member: async (input = {}) => {
      const m = await addMember({
        accountId: account.accountId,
        email: input.email ?? `agent-${randomBytes(3).toString('hex')}@example.com`,
        name: input.name ?? 'Agent',
        role: input.role,
      });
      return { memberId: m.memberId, email: m.email };
    },
  };
}

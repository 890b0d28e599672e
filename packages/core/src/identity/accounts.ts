import { randomUUID } from 'node:crypto';
import type { Allowances, Plan } from '../kernel/tenant.js';
import { Account, Member, Project, tenantService } from './entities.js';

export async function createAccount(input: { name: string; plan: Plan }) {
  const { data } = await Account.create({ accountId: randomUUID(), name: input.name, plan: input.plan }).go();
  return data;
}

export async function setAccountLimits(accountId: string, limits: Partial<Allowances>) {
  const { data: account } = await Account.get({ accountId }).go();
  if (!account) return undefined;
  const merged = { ...(account.limits ?? {}), ...limits };
  const { data } = await Account.patch({ accountId }).set({ limits: merged }).go({ response: 'all_new' });
  return data;
}

export async function setAccountPlan(accountId: string, plan: Plan) {
  const { data } = await Account.patch({ accountId }).set({ plan }).go({ response: 'all_new' });
  return data;
}

/** The account and all its projects, in one Query on the tenant item collection. */
export async function loadTenant(accountId: string) {
  const { data } = await tenantService.collections.tenant({ accountId }).go({ pages: 'all' });
  return { account: data.account[0], projects: data.project };
}

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export async function createProject(input: { accountId: string; slug: string; name: string; senderEmail?: string }) {
  if (!SLUG_PATTERN.test(input.slug)) throw new Error(`Invalid project slug "${input.slug}": use a-z, 0-9 and dashes.`);
  const { account, projects } = await loadTenant(input.accountId);
  if (!account) throw new Error(`Account ${input.accountId} not found.`);
  if (projects.some((p) => p.slug === input.slug))
    throw new Error(`Project slug "${input.slug}" is taken in this account.`);
  const { data } = await Project.create({ ...input, projectId: randomUUID() }).go();
  return data;
}

export async function addMember(input: { accountId: string; email: string; name: string; role?: 'admin' | 'agent' }) {
  const { data } = await Member.create({ ...input, email: input.email.toLowerCase(), memberId: randomUUID() }).go();
  return data;
}

export async function listMembers(accountId: string) {
  const { data } = await Member.query.byAccount({ accountId }).go({ pages: 'all' });
  return data.map(({ memberId, email, name, role }) => ({ id: memberId, email, name, role }));
}

/** One GetItem: is this member id one of the account's? */
export async function getMember(accountId: string, memberId: string) {
  const { data } = await Member.get({ accountId, memberId }).go();
  return data ?? undefined;
}

/**
 * Writes every project again, so each carries the keys of every index its entity declares: projects
 * created before the by-id index (inbound mail finds a project by id alone) get it. Idempotent; the
 * admin CLI's `projects:index` after an upgrade, and the local stack at start. Answers how many.
 */
export async function reindexProjects(): Promise<number> {
  const { data } = await Project.scan.go({ pages: 'all' });
  if (data.length) await Project.put(data).go();
  return data.length;
}

import { randomBytes } from 'node:crypto';
import { loadTenant } from '@helpdesk/core/identity/accounts';
import { allowancesFor } from '@helpdesk/core/identity/plans';
import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';
import type { TenantFixture } from '../support/fixtures.js';

/** A customer address no other test uses (the SES stand-in's store is shared). */
export const customerEmail = (prefix = 'cust') => `${prefix}-${randomBytes(5).toString('hex')}@example.com`;

export interface RecordedEvent {
  source: { projectId: string; env: string; accountId?: string };
  name: string;
  data: any;
}

/** Creates a ticket through the API and returns the Created ticket. */
export async function createTicket(
  app: TestApp,
  key: string,
  body: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  const res = await app.call('POST', '/tickets', {
    key,
    headers,
    body: {
      subject: 'Cannot log in',
      body: 'It says my password is wrong.',
      customer: { email: customerEmail() },
      ...body,
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    id: string;
    number: number;
    subject: string;
    status: string;
    priority: string;
    customer: { email: string; name: string };
  };
}

/** The context the pipeline would resolve for the tenant's `slug` project, for calling core directly. */
export async function tenantContext(
  t: TenantFixture,
  slug = 'main',
  env: 'live' | 'sandbox' = 'live',
): Promise<TenantContext> {
  const { account } = await loadTenant(t.accountId);
  const project = t.projects[slug]!;
  return {
    accountId: t.accountId,
    plan: account!.plan,
    allowances: allowancesFor(account!.plan, account!.limits),
    env,
    projectId: project.id,
    projectSlug: project.slug,
    project,
  };
}

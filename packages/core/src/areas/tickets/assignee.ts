import { getMember } from '../../identity/accounts.js';
import { Member } from '../../identity/entities.js';
import { check, type WriteItem } from '../../kernel/db/commit.js';
import { problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { UNASSIGNED } from './entities.js';

export const unknownMember = (memberId: string) => problem('ticket.unknown_member', { memberId });

/** The index value for an assignment: a member id of the account (422 otherwise) or UNASSIGNED. */
export async function assigneeFor(ctx: TenantContext, memberId: string | null | undefined) {
  if (!memberId) return UNASSIGNED;
  if (!(await getMember(ctx.accountId, memberId))) throw unknownMember(memberId);
  return memberId;
}

/** assigneeFor as a condition of the caller's transaction, instead of a read before it. */
export function memberCheck(ctx: TenantContext, memberId: string): WriteItem {
  const { TableName, Key } = Member.get({ accountId: ctx.accountId, memberId }).params();
  return check({ TableName, Key, ConditionExpression: 'attribute_exists(pk)' });
}

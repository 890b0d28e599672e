import type { TenantContext } from '../auth/context.js';
import { getMember } from '../auth/accounts.js';
import { Member } from '../auth/entities.js';
import { check, type WriteItem } from '../db/commit.js';
import { UNASSIGNED } from './entities.js';
import { problem } from '../errors/problem.js';

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

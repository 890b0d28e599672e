import type { TenantContext } from '../auth/context.js';
import { getMember } from '../auth/accounts.js';
import { errors } from '../http/errors.js';
import { UNASSIGNED } from './entities.js';

/** The index value for an assignment: a member id of the account (422 otherwise) or UNASSIGNED. */
export async function assigneeFor(ctx: TenantContext, memberId: string | null | undefined) {
  if (!memberId) return UNASSIGNED;
  if (!(await getMember(ctx.accountId, memberId))) {
    throw errors.unprocessable('ticket.unknown_member', `No member ${memberId} in this account.`, {
      fields: [{ field: 'assignedTo', in: 'body', message: 'Not a member of this account' }],
    });
  }
  return memberId;
}

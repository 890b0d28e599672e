import { check, type WriteItem } from '../../kernel/db/commit.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { Ticket } from './entities.js';

/** That a ticket of the caller's project and environment exists, as a condition of the caller's transaction. */
export function ticketCheck(ctx: TenantContext, ticketId: string): WriteItem {
  const { TableName, Key } = Ticket.get({ projectId: ctx.projectId, env: ctx.env, ticketId }).params();
  return check({ TableName, Key, ConditionExpression: 'attribute_exists(pk)' });
}

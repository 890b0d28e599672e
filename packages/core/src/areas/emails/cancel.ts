import { releaseQuota } from '../../identity/quota.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { cancelSchedule } from '../../kernel/ports/scheduler.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { EmailLog } from './entities.js';
import { type EmailRow, toLogRow } from './present.js';
import { findEmail } from './read.js';

/**
 * DELETE /emails/{id}: a `scheduled` send becomes `canceled` and its schedule is removed. The row
 * moves first, so a schedule firing at the same moment finds nothing to send; whichever of the two
 * claims the row first wins, and the other sees a status it leaves alone.
 */
export async function cancelEmail(ctx: TenantContext, emailId: string) {
  let row: EmailRow;
  try {
    ({ data: row } = await EmailLog.patch({ projectId: ctx.projectId, env: ctx.env, emailId })
      .set({ status: 'canceled' })
      .where((a, op) => op.eq(a.status, 'scheduled'))
      .go({ response: 'all_new' }));
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const current = await findEmail(ctx, emailId);
    if (!current) throw errors.notFound('Email');
    throw problem('email.not_cancelable', { status: current.status });
  }
  await cancelSchedule(emailId);
  if (row.quotaCounted) await releaseQuota(ctx, 'emails', 1);
  return toLogRow(row);
}

import type { TenantContext } from '../auth/context.js';
import { createEmail } from './create.js';

export type SystemEmailKind = 'ticket_reply' | 'feedback_request' | 'feedback_reply';

/**
 * Mails the service sends on the project's behalf (ticket replies, feedback requests): a custom send
 * through the normal pipeline (Email Logs row with `metadata.kind`, email queue, SES in live and
 * captured in sandbox), but without idempotency, rate limit or email quota: the customer's allowance
 * covers the emails they send, not the helpdesk's own notifications.
 */
export async function sendSystemEmail(
  ctx: TenantContext,
  input: { to: string; subject: string; markdown: string; kind: SystemEmailKind; metadata?: Record<string, string> },
): Promise<{ id: string; status: string }> {
  const row = await createEmail(ctx, {
    to: input.to,
    metadata: { ...input.metadata, kind: input.kind },
    content: { kind: 'custom', subject: input.subject, body: input.markdown },
    countQuota: false,
  });
  return { id: row.emailId, status: row.status };
}

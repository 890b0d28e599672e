import { randomUUID } from 'node:crypto';
import type { TenantContext } from '../../kernel/tenant.js';
import { dispatchEmail, type EmailDraft, emailLogRow } from './create.js';
import { EmailLog } from './entities.js';

export type SystemEmailKind = 'ticket_reply' | 'feedback_request' | 'feedback_reply';

export interface SystemEmail {
  to: string;
  subject: string;
  markdown: string;
  kind: SystemEmailKind;
  metadata?: Record<string, string>;
  /** Where the customer's answer goes (a ticket's reply address). */
  replyTo?: string;
  /** The conversation (a ticket id): delivery adds In-Reply-To and References from its earlier mails. */
  threadId?: string;
}

const draftOf = (input: SystemEmail): EmailDraft => ({
  to: input.to,
  replyTo: input.replyTo,
  threadId: input.threadId,
  metadata: { ...input.metadata, kind: input.kind },
  content: { kind: 'custom', subject: input.subject, body: input.markdown },
  countQuota: false,
});

/**
 * Mails the service sends on the project's behalf (ticket replies, feedback requests): a custom send
 * through the normal pipeline (Email Logs row with `metadata.kind`, email queue, SES in live and
 * captured in sandbox), but without idempotency, rate limit or email quota: the customer's allowance
 * covers the emails they send, not the helpdesk's own notifications. Suppression is left to the email
 * consumer, which checks it before every delivery, so a system mail costs one write.
 */
export function prepareSystemEmail(ctx: TenantContext, input: SystemEmail) {
  const emailId = randomUUID();
  const create = EmailLog.create(emailLogRow(ctx, emailId, draftOf(input), { quotaCounted: false }));
  return {
    id: emailId,
    /** The row's Put, for the caller's own transaction. */
    params: create.params(),
    /** Once the row is committed: queue the send. */
    dispatch: () => dispatchEmail(ctx, emailId),
    /** Or write the row on its own, then queue the send. */
    send: async () => {
      await create.go();
      await dispatchEmail(ctx, emailId);
      return { id: emailId, status: 'queued' };
    },
  };
}

export function sendSystemEmail(ctx: TenantContext, input: SystemEmail): Promise<{ id: string; status: string }> {
  return prepareSystemEmail(ctx, input).send();
}

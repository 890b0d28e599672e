import { randomUUID } from 'node:crypto';
import { commit, put } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { deliveryItem, type EmailDraft, emailWrites } from './create.js';

export type SystemEmailKind =
  | 'ticket_reply'
  | 'feedback_request'
  | 'feedback_reply'
  | 'webhook_notice'
  | 'sla_notice'
  | 'portal_confirmation'
  | 'log_alert';

export interface SystemEmail {
  to: string;
  cc?: string[];
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
  ...(input.cc ? { cc: input.cc } : {}),
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
  const mail = emailWrites(ctx, emailId, draftOf(input), { quotaCounted: false });
  return {
    id: emailId,
    /** The row, its content and its send, for the caller's own transaction (one side effect of its write). */
    writes: [put(mail.put), ...(mail.content ? [mail.content] : []), deliveryItem(ctx, emailId)],
  };
}

/** A system mail on its own: the row and its send in one transaction. */
export async function sendSystemEmail(ctx: TenantContext, input: SystemEmail): Promise<{ id: string; status: string }> {
  const mail = prepareSystemEmail(ctx, input);
  await commit({ items: () => ({ mail: mail.writes }), exhausted: () => errors.conflict('The email') });
  return { id: mail.id, status: 'queued' };
}

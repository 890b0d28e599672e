import { randomUUID } from 'node:crypto';
import { consumeQuota, releaseQuota } from '../../identity/quota.js';
import { env } from '../../kernel/config.js';
import { bareAddress } from '../../kernel/mail/mailbox.js';
import { must } from '../../kernel/must.js';
import { enqueue } from '../../kernel/ports/queue.js';
import { scheduleOnce } from '../../kernel/ports/scheduler.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { CUSTOM_REF, EmailLog } from './entities.js';
import type { EmailRow } from './present.js';
import type { DeliveryMessage } from './queue.js';
import { emailsQueue } from './queue.js';
import { suppressionOf } from './suppression.js';

/** What the email consumer receives: the row to deliver and the tenant it belongs to. */

/** A send as the API (or a system mail) asks for it, already validated. */
export interface EmailDraft {
  to: string;
  cc?: string[];
  bcc?: string[];
  from?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  metadata?: Record<string, string>;
  /** A system mail's conversation (a ticket id), threaded at delivery. */
  threadId?: string;
  scheduledAt?: Date;
  content: /** `subject`: the template's subject rendered when the send was accepted (delivery renders it again, identically). */
    | {
        kind: 'template';
        templateKey: string;
        templateVersion?: number;
        variables: Record<string, unknown>;
        subject: string;
      }
    | { kind: 'custom'; subject: string; body: string; layout?: string };
  /** Live customer sends take a unit of the monthly allowance; system mails do not. */
  countQuota: boolean;
}

const deliveryMessage = (ctx: TenantContext, emailId: string): DeliveryMessage => {
  const { keyId: _keyId, ...tenant } = ctx;
  return { emailId, ctx: tenant };
};

/** The Email Logs row of a send, as first written. */
export function emailLogRow(
  ctx: TenantContext,
  emailId: string,
  draft: EmailDraft,
  state: { blockReason?: Awaited<ReturnType<typeof suppressionOf>>; quotaCounted: boolean },
) {
  const { content } = draft;
  return {
    projectId: ctx.projectId,
    env: ctx.env,
    emailId,
    kind: content.kind,
    status: state.blockReason ? ('blocked' as const) : draft.scheduledAt ? ('scheduled' as const) : ('queued' as const),
    to: draft.to,
    recipient: bareAddress(draft.to),
    cc: draft.cc ?? [],
    bcc: draft.bcc ?? [],
    from: draft.from ?? ctx.project.senderEmail ?? env.defaultSender,
    replyTo: draft.replyTo,
    headers: draft.headers,
    metadata: draft.metadata ?? {},
    threadId: draft.threadId,
    subject: content.subject,
    ...(content.kind === 'template'
      ? {
          templateKey: content.templateKey,
          templateRef: content.templateKey,
          templateVersion: content.templateVersion,
          variables: JSON.stringify(content.variables),
        }
      : { templateRef: CUSTOM_REF, body: content.body, layout: content.layout }),
    blocked: state.blockReason !== undefined,
    blockReason: state.blockReason,
    scheduledAt: draft.scheduledAt?.toISOString(),
    quotaCounted: state.quotaCounted,
  };
}

/** Hands a queued send to the email consumer. */
export const dispatchEmail = (ctx: TenantContext, emailId: string) =>
  enqueue(emailsQueue, deliveryMessage(ctx, emailId));

/**
 * Writes the Email Logs row and hands the send to the email queue (now, or through a one-time
 * schedule). A suppressed recipient gets a `blocked` row and nothing else: no quota, no queue.
 */
export async function createEmail(ctx: TenantContext, draft: EmailDraft): Promise<EmailRow> {
  const emailId = randomUUID();
  const blockReason = await suppressionOf(ctx, draft.to);
  const countQuota = draft.countQuota && !blockReason && ctx.env === 'live';
  if (countQuota) await consumeQuota(ctx, 'emails', 1);
  let row: EmailRow;
  try {
    ({ data: row } = await EmailLog.create(
      emailLogRow(ctx, emailId, draft, { blockReason, quotaCounted: countQuota }),
    ).go());
  } catch (err) {
    if (countQuota) await releaseQuota(ctx, 'emails', 1);
    throw err;
  }
  if (row.status === 'scheduled') {
    await scheduleOnce({
      jobId: emailId,
      at: must(draft.scheduledAt, 'the time of a scheduled send'),
      queue: emailsQueue,
      message: deliveryMessage(ctx, emailId),
    });
  } else if (row.status === 'queued') {
    await dispatchEmail(ctx, emailId);
  }
  return row;
}

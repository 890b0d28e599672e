import { randomUUID } from 'node:crypto';
import { consumeQuota, releaseQuota } from '../../identity/quota.js';
import { env } from '../../kernel/config.js';
import { commit, put } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { bareAddress } from '../../kernel/mail/mailbox.js';
import { must } from '../../kernel/must.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { eventItem } from '../webhooks/emit.js';
import { CUSTOM_REF, EmailContent, EmailLog } from './entities.js';
import type { EmailRow } from './present.js';
import type { DeliveryMessage } from './queue.js';
import { emailsQueue } from './queue.js';
import type { BlockReason } from './schemas.js';
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
  /** Open and click tracking (customer sends that ask for it). */
  tracking?: { opens?: boolean; clicks?: boolean };
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
  /**
   * The recipient's suppression when the caller has read it already (a batch reads all its recipients
   * in one BatchGetItem): its reason, or `null` for none. Absent: read here.
   */
  suppression?: BlockReason | null;
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
    ...(draft.tracking?.opens ? { trackOpens: true } : {}),
    ...(draft.tracking?.clicks ? { trackClicks: true } : {}),
    threadId: draft.threadId,
    subject: content.subject,
    ...(content.kind === 'template'
      ? { templateKey: content.templateKey, templateRef: content.templateKey, templateVersion: content.templateVersion }
      : { templateRef: CUSTOM_REF }),
    blocked: state.blockReason !== undefined,
    blockReason: state.blockReason,
    scheduledAt: draft.scheduledAt?.toISOString(),
    quotaCounted: state.quotaCounted,
  };
}

/**
 * The row of a send and what it renders from (EmailContent says why apart), for one transaction. A
 * blocked send never renders: it has no content item.
 */
export function emailWrites(
  ctx: TenantContext,
  emailId: string,
  draft: EmailDraft,
  state: Parameters<typeof emailLogRow>[3],
) {
  const { content } = draft;
  const row = emailLogRow(ctx, emailId, draft, state);
  return {
    row,
    // ElectroDB's Put with its defaults applied: committed by the caller, and read back from itself (no GetItem).
    put: EmailLog.create(row).params() as { Item: Record<string, unknown> },
    content:
      state.blockReason === undefined &&
      put(
        EmailContent.create({
          projectId: ctx.projectId,
          env: ctx.env,
          emailId,
          ...(content.kind === 'template'
            ? { variables: JSON.stringify(content.variables) }
            : { body: content.body, ...(content.layout ? { layout: content.layout } : {}) }),
        }),
      ),
  };
}

/**
 * The outbox item that hands a row's send to the email consumer: now, or at `at` through a one-time
 * schedule named by the email's id (so cancelling the send can delete it).
 */
export const deliveryItem = (ctx: TenantContext, emailId: string, at?: Date) =>
  at
    ? outboxItem(emailsQueue, deliveryMessage(ctx, emailId), { id: emailId, at })
    : outboxItem(emailsQueue, deliveryMessage(ctx, emailId), { id: `email-${emailId}` });

/**
 * Writes the Email Logs row and hands the send to the email queue (now, or through a one-time
 * schedule). A suppressed recipient gets a `blocked` row and email.suppressed: no quota, no queue.
 */
export async function createEmail(ctx: TenantContext, draft: EmailDraft): Promise<EmailRow> {
  const emailId = randomUUID();
  const blockReason =
    draft.suppression === undefined ? await suppressionOf(ctx, draft.to) : (draft.suppression ?? undefined);
  const countQuota = draft.countQuota && !blockReason && ctx.env === 'live';
  if (countQuota) await consumeQuota(ctx, 'emails', 1);
  const { row, put: created, content } = emailWrites(ctx, emailId, draft, { blockReason, quotaCounted: countQuota });
  try {
    // The row and its send (or schedule) commit together: an accepted send is never left unqueued.
    await commit({
      items: () => ({
        row: put(created),
        content,
        send:
          row.status === 'scheduled'
            ? deliveryItem(ctx, emailId, must(draft.scheduledAt, 'the time of a scheduled send'))
            : row.status === 'queued' && deliveryItem(ctx, emailId),
        suppressed:
          blockReason &&
          eventItem(ctx, 'email.suppressed', {
            email: {
              id: emailId,
              to: draft.to,
              subject: row.subject ?? null,
              templateKey: draft.content.kind === 'template' ? draft.content.templateKey : null,
            },
            recipient: bareAddress(draft.to),
            reason: blockReason,
          }),
      }),
      exhausted: () => errors.conflict('The email'),
    });
  } catch (err) {
    if (countQuota) await releaseQuota(ctx, 'emails', 1);
    throw err;
  }
  return EmailLog.parse({ Item: created.Item }).data as EmailRow;
}

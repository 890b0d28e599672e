import type { EntityItem } from 'electrodb';
import type { TenantContext } from '../../kernel/tenant.js';
import type { EmailLog } from './entities.js';

export type EmailRow = EntityItem<typeof EmailLog>;

/** The spec's Email send result. */
export const toSendResult = (
  ctx: Pick<TenantContext, 'projectId' | 'projectSlug'>,
  row: EmailRow,
  deduplicated = false,
) => ({
  projectId: ctx.projectId,
  projectSlug: ctx.projectSlug,
  id: row.emailId,
  kind: row.kind,
  status: row.status,
  to: row.to,
  // Rows written before template sends stored their rendered subject have none.
  subject: row.subject ?? '',
  deduplicated,
  blocked: row.blocked,
  blockReason: row.blockReason ?? null,
  scheduledAt: row.scheduledAt ?? null,
  createdAt: row.createdAt,
});
export type SendResult = ReturnType<typeof toSendResult>;

/** An Email Logs row as GET /emails and GET /emails/{id} answer it. */
export const toLogRow = (row: EmailRow) => ({
  id: row.emailId,
  kind: row.kind,
  status: row.status,
  to: row.to,
  cc: row.cc,
  bcc: row.bcc,
  from: row.from,
  replyTo: row.replyTo ?? null,
  subject: row.subject ?? null,
  templateKey: row.templateKey ?? null,
  templateVersion: row.templateVersion ?? null,
  metadata: (row.metadata as Record<string, string> | undefined) ?? {},
  tracking: { opens: row.trackOpens ?? false, clicks: row.trackClicks ?? false },
  blocked: row.blocked,
  blockReason: row.blockReason ?? null,
  scheduledAt: row.scheduledAt ?? null,
  sentAt: row.sentAt ?? null,
  deliveredAt: row.deliveredAt ?? null,
  openedAt: row.openedAt ?? null,
  opens: row.opens ?? 0,
  clickedAt: row.clickedAt ?? null,
  clicks: row.clicks ?? 0,
  lastClickedLink: row.lastClickedLink ?? null,
  error: row.error ?? null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  ...(row.captured
    ? {
        captured: { subject: row.captured.subject ?? '', html: row.captured.html ?? '', text: row.captured.text ?? '' },
      }
    : {}),
});

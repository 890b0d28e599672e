import { firstMs, LATEST, lastMs } from '../../kernel/api/date-bounds.js';
import { paginate } from '../../kernel/api/list.js';
import { errors } from '../../kernel/errors/common.js';
import { bareAddress } from '../../kernel/mail/mailbox.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { EmailLog } from './entities.js';
import { type EmailRow, toLogRow } from './present.js';
import type { EmailStatus } from './schemas.js';

export interface EmailFilters {
  page: number;
  limit: number;
  status?: EmailStatus;
  to?: string;
  templateKey?: string;
  dateFrom?: string;
  dateTo?: string;
}

/** [from, until) as ISO strings (kernel/api/date-bounds.ts). */
const createdRange = (f: EmailFilters) => {
  const from = f.dateFrom ? firstMs(f.dateFrom) : 0;
  const until = f.dateTo ? Math.min(LATEST, lastMs(f.dateTo) + 1) : LATEST;
  if (from >= until) throw errors.validation([{ field: 'dateFrom', in: 'query', message: 'Must not be after dateTo' }]);
  return { from: new Date(from).toISOString(), until: new Date(until).toISOString() };
};

/**
 * GET /emails: reads the most selective index for the filters given (recipient, template, status,
 * or all by date), bounded by the date range on its sort key, newest first; other filters apply to
 * what that one Query returns. Entries are narrow (kernel/db/indexes.ts), so the page's rows are then
 * read whole: one BatchGetItem per 100.
 */
export async function listEmails(ctx: TenantContext, f: EmailFilters) {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const { from, until } = createdRange(f);
  // BETWEEN on the createdAt prefix: a full sort key at exactly `until` sorts after it, so the bound is exclusive.
  const recipient = f.to === undefined ? undefined : bareAddress(f.to);
  // An entry carries what the filters beside its index's own key read (kernel/db/indexes.ts); a key is
  // lower-cased, so a template key is compared as given.
  const byStatus = !recipient && !f.templateKey && f.status !== undefined;
  const query = recipient
    ? EmailLog.query.byRecipient({ ...tenant, recipient })
    : f.templateKey
      ? EmailLog.query.byTemplate({ ...tenant, templateRef: f.templateKey })
      : f.status
        ? EmailLog.query.byStatus({ ...tenant, status: f.status })
        : EmailLog.query.byCreated(tenant);
  const { data } = await query.between({ createdAt: from }, { createdAt: until }).go({ order: 'desc', pages: 'all' });
  const entries = data.filter(
    (r) => (byStatus || !f.status || r.status === f.status) && (!f.templateKey || r.templateRef === f.templateKey),
  );
  const { rows: page, ...rest } = paginate(entries, f.page, f.limit);
  const rows = await emailsByIds(
    ctx,
    page.map((r) => r.emailId),
  );
  return { emails: rows.map(toLogRow), ...rest };
}

/** The rows with these ids in their order, missing ones (deleted since the list read) left out. */
async function emailsByIds(ctx: TenantContext, emailIds: string[]): Promise<EmailRow[]> {
  const found = new Map<string, EmailRow>();
  let pending = emailIds.map((emailId) => ({ projectId: ctx.projectId, env: ctx.env, emailId }));
  while (pending.length) {
    const { data, unprocessed } = await EmailLog.get(pending).go();
    for (const row of data) found.set(row.emailId, row);
    pending = unprocessed;
  }
  return emailIds.flatMap((id) => found.get(id) ?? []);
}

/** One GetItem; another project's or environment's id is simply not found. */
export async function findEmail(ctx: TenantContext, emailId: string) {
  const { data } = await EmailLog.get({ projectId: ctx.projectId, env: ctx.env, emailId }).go();
  return data ?? undefined;
}

export async function getEmail(ctx: TenantContext, emailId: string) {
  const row = await findEmail(ctx, emailId);
  if (!row) throw errors.notFound('Email');
  return toLogRow(row);
}

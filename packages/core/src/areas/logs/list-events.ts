import { firstMs, lastMs } from '../../kernel/api/date-bounds.js';
import { paginate } from '../../kernel/api/list.js';
import { isExpired } from '../../kernel/db/client.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { LogEvent } from './entities.js';
import { toLogEvent } from './events.js';
import { issueIdFor } from './fingerprint.js';
import type { LogLevel } from './values.js';

export interface LogQuery {
  level?: LogLevel[];
  scope?: string;
  search?: string;
  fingerprint?: string;
  dateFrom?: string;
  dateTo?: string;
  page: number;
  limit: number;
}

/**
 * Sort-key bounds on `timestamp` (kernel/api/date-bounds.ts). A key continues past the timestamp
 * (`#eventid_…`), so the upper bound gets a suffix above `#`: an inclusive dateTo then keeps every event at
 * that instant or day.
 */
const iso = (ms: number) => new Date(ms).toISOString();
const bounds = (q: LogQuery) => ({
  from: q.dateFrom ? iso(firstMs(q.dateFrom)) : '',
  to: q.dateTo ? `${iso(lastMs(q.dateTo))}~` : '~',
});

/**
 * GET /logs. The time range and the fingerprint are key conditions (the project's partition, or the
 * issue's on gsi1); level and scope are filter expressions. The matching set is read with a small
 * projection for the total, and only the requested page is fetched whole (stacks and contexts are large).
 */
export async function listLogEvents(ctx: TenantContext, q: LogQuery, now = Date.now()) {
  const { from, to } = bounds(q);
  if (from > to) throw errors.validation([{ field: 'dateFrom', in: 'query', message: 'Must not be after dateTo' }]);
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const query = q.fingerprint
    ? LogEvent.query.byIssue({ ...tenant, issueId: issueIdFor(ctx.projectId, ctx.env, q.fingerprint) })
    : LogEvent.query.byTime(tenant);
  const { data: matches } = await query
    .between({ timestamp: from }, { timestamp: to })
    .where((a, op) =>
      [
        q.level ? `(${q.level.map((l) => op.eq(a.level, l)).join(' OR ')})` : '',
        q.scope !== undefined ? op.eq(a.scope, q.scope) : '',
      ]
        .filter(Boolean)
        .join(' AND '),
    )
    .go({
      order: 'desc',
      pages: 'all',
      attributes: ['eventId', 'timestamp', 'expiresAt', ...(q.search ? (['message', 'scope'] as const) : [])],
    });
  const needle = q.search?.toLowerCase();
  const visible = matches.filter(
    (e) =>
      !isExpired(e.expiresAt, now) &&
      (!needle || (e.message ?? '').toLowerCase().includes(needle) || (e.scope ?? '').toLowerCase().includes(needle)),
  );
  const { rows, total, page, limit } = paginate(visible, q.page, q.limit);
  const { data: full } = rows.length
    ? await LogEvent.get(rows.map((e) => ({ ...tenant, timestamp: e.timestamp, eventId: e.eventId }))).go({
        preserveBatchOrder: true,
      })
    : { data: [] };
  return { logs: full.flatMap((e) => (e ? [toLogEvent(e)] : [])), total, page, limit };
}

import type { EntityItem } from 'electrodb';
import { paginate } from '../../kernel/api/list.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { LogAlert } from './alert-entities.js';
import { countsBetween, dayOf, hourOf } from './counts.js';
import { LogIssue } from './entities.js';
import { toIssue } from './issues.js';
import { releasesSince } from './releases.js';
import { ALERTS_LISTED, type LogLevel } from './values.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const tenantOf = (ctx: TenantContext) => ({ projectId: ctx.projectId, env: ctx.env });

/**
 * POST /log-issues/{id}/snooze (`until`) and DELETE (until: null): alert rules stay quiet for the issue
 * until then; its events are counted as ever. Written only where the issue exists (404 otherwise) and is
 * not merged (422, as PATCH: its events and alerts are the target's now).
 */
export async function snoozeLogIssue(ctx: TenantContext, issueId: string, until: string | null) {
  const key = { ...tenantOf(ctx), issueId };
  try {
    const set = LogIssue.patch(key);
    const { data } = await (until
      ? set.set({ snoozedUntil: new Date(until).toISOString() })
      : set.remove(['snoozedUntil'])
    )
      .add({ version: 1 })
      .where((a, op) => op.notExists(a.mergedInto))
      .go({ response: 'all_new' });
    return toIssue(data as Parameters<typeof toIssue>[0]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const { data: issue } = await LogIssue.get(key).go({ consistent: true });
    if (issue?.mergedInto) throw problem('log_issue.already_merged', { id: issueId, mergedInto: issue.mergedInto });
    throw errors.notFound('Log issue');
  }
}

/**
 * GET /log-issues/{id}/activity: the issue's events per hour over the last 24 hours and per day over
 * the last 30 (UTC, zeros included), from the counters the grouping consumer keeps (two Queries), and
 * the project's releases first seen in those 30 days (the chart marks them).
 */
export async function issueActivity(ctx: TenantContext, issueId: string, now = Date.now()) {
  const tenant = tenantOf(ctx);
  const { data: issue } = await LogIssue.get({ ...tenant, issueId }).go();
  if (!issue) throw errors.notFound('Log issue');
  const hours = Array.from({ length: 24 }, (_, i) => hourOf(new Date(now - (23 - i) * HOUR).toISOString()));
  const days = Array.from({ length: 30 }, (_, i) => dayOf(new Date(now - (29 - i) * DAY).toISOString()));
  const [hourly, daily, releases] = await Promise.all([
    countsBetween(tenant, issueId, 'h', hours[0] as string, hours[23] as string),
    countsBetween(tenant, issueId, 'd', days[0] as string, days[29] as string),
    releasesSince(tenant, `${days[0]}T00:00:00.000Z`),
  ]);
  return {
    hourly: hours.map((hour) => ({ hour: `${hour}:00:00.000Z`, count: hourly.get(hour) ?? 0 })),
    daily: days.map((day) => ({ day, count: daily.get(day) ?? 0 })),
    releases,
  };
}

export interface AlertQuery {
  ruleId?: string;
  issueId?: string;
  page: number;
  limit: number;
}

/** GET /log-alerts: the latest alerts (kept 90 days), newest first, optionally of one rule or issue. */
export async function listLogAlerts(ctx: TenantContext, q: AlertQuery) {
  const { data } = await LogAlert.query.byTime(tenantOf(ctx)).go({ order: 'desc', limit: ALERTS_LISTED });
  const matching = data.filter((a) => (!q.ruleId || a.ruleId === q.ruleId) && (!q.issueId || a.issueId === q.issueId));
  const { rows, total, page, limit } = paginate(matching, q.page, q.limit);
  return { alerts: rows.map(toAlert), total, page, limit };
}

export const toAlert = (a: EntityItem<typeof LogAlert>) => ({
  id: a.alertId,
  ruleId: a.ruleId,
  ruleName: a.ruleName,
  trigger: a.trigger,
  issue: a.issue as { id: string; title: string; level: LogLevel; scope: string | null },
  count: a.count ?? null,
  windowMinutes: a.windowMinutes ?? null,
  baseline: a.baseline ?? null,
  firedAt: a.firedAt,
});

/** Issues whose alerts are snoozed now, soonest to wake first (the console lists them). */
export async function snoozedIssues(ctx: TenantContext, now = Date.now()) {
  const at = new Date(now).toISOString();
  const { data } = await LogIssue.query
    .bySeen(tenantOf(ctx))
    .where((a, op) => `${op.gt(a.snoozedUntil, at)} AND ${op.notExists(a.mergedInto)}`)
    .go({ pages: 'all' });
  return data.map(toIssue).sort((a, b) => (a.snoozedUntil ?? '').localeCompare(b.snoozedUntil ?? ''));
}

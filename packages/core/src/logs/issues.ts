import type { EntityItem } from 'electrodb';
import type { TenantContext } from '../auth/context.js';
import { isConditionFailure } from '../db/errors.js';
import { isExpired } from '../db/client.js';
import { errors } from '../http/errors.js';
import { paginate } from '../http/list.js';
import { LogIssue, logService } from './entities.js';
import { toLogEvent } from './events.js';
import type { IssueStatus, LogLevel } from './levels.js';

/** Latest events returned with one issue. */
const LATEST_EVENTS = 10;

type StoredIssue = EntityItem<typeof LogIssue>;

const toIssue = (i: StoredIssue) => ({
  id: i.issueId,
  fingerprint: i.fingerprint,
  title: i.title,
  level: i.level,
  scope: i.scope ?? null,
  status: i.status,
  regressed: i.regressed,
  count: i.count,
  firstSeenAt: i.firstSeenAt,
  lastSeenAt: i.lastSeenAt,
  lastEventId: i.lastEventId,
});

export interface IssueQuery {
  status?: IssueStatus[];
  level?: LogLevel[];
  scope?: string;
  search?: string;
  page: number;
  limit: number;
}

/** GET /log-issues: gsi2 holds a project's issues by lastSeenAt, so newest-seen first is the key order. */
export async function listLogIssues(ctx: TenantContext, q: IssueQuery) {
  const { data } = await LogIssue.query
    .bySeen({ projectId: ctx.projectId, env: ctx.env })
    .where((a, op) =>
      [
        q.status ? `(${q.status.map((s) => op.eq(a.status, s)).join(' OR ')})` : '',
        q.level ? `(${q.level.map((l) => op.eq(a.level, l)).join(' OR ')})` : '',
        q.scope !== undefined ? op.eq(a.scope, q.scope) : '',
      ]
        .filter(Boolean)
        .join(' AND '),
    )
    .go({ order: 'desc', pages: 'all' });
  const needle = q.search?.toLowerCase();
  const matching = needle
    ? data.filter((i) => i.title.toLowerCase().includes(needle) || (i.scope ?? '').toLowerCase().includes(needle))
    : data;
  const { rows, total, page, limit } = paginate(matching, q.page, q.limit);
  return { issues: rows.map(toIssue), total, page, limit };
}

/**
 * GET /log-issues/{id}: the issue and its latest events in one Query on their shared gsi1 partition
 * (the issue's sort key sorts after its events', so it comes first in descending order).
 */
export async function getLogIssue(ctx: TenantContext, issueId: string, now = Date.now()) {
  const { data } = await logService.collections
    .issueEvents({ projectId: ctx.projectId, env: ctx.env, issueId })
    .go({ order: 'desc', limit: LATEST_EVENTS + 1 });
  const issue = data.logIssue[0];
  if (!issue) throw errors.notFound('Log issue');
  const latestEvents = data.logEvent.filter((e) => !isExpired(e.expiresAt, now)).map(toLogEvent);
  return { ...toIssue(issue), latestEvents };
}

/** PATCH /log-issues/{id}: a status set by a person clears the regression mark. */
export async function setLogIssueStatus(ctx: TenantContext, issueId: string, status: IssueStatus) {
  try {
    const { data } = await LogIssue.patch({ projectId: ctx.projectId, env: ctx.env, issueId })
      .set({ status, regressed: false })
      .add({ version: 1 })
      .go({ response: 'all_new' });
    return toIssue(data as StoredIssue);
  } catch (err) {
    if (isConditionFailure(err)) throw errors.notFound('Log issue');
    throw err;
  }
}

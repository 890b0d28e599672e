import type { EntityItem } from 'electrodb';
import { paginate } from '../../kernel/api/list.js';
import { isExpired } from '../../kernel/db/client.js';
import { commit, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { must } from '../../kernel/must.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { eventItem } from '../webhooks/emit.js';
import { LogEvent, LogIssue, logService } from './entities.js';
import { toLogEvent } from './events.js';
import { liveIssue, mergeIssue } from './merge.js';
import { lastSeq, seenSeq } from './releases.js';
import type { IssueStatus, LogLevel } from './values.js';

/** Latest events returned with one issue. */
const LATEST_EVENTS = 10;

type StoredIssue = EntityItem<typeof LogIssue>;

export const toIssue = (i: StoredIssue) => ({
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
  groupingVersion: i.grouping ?? 1,
  mergedInto: i.mergedInto ?? null,
  firstRelease: i.firstRelease ?? null,
  lastRelease: i.lastRelease ?? null,
  resolvedIn: i.resolvedIn ?? null,
  regressedIn: i.regressedIn ?? null,
  snoozedUntil: i.snoozedUntil && Date.parse(i.snoozedUntil) > Date.now() ? i.snoozedUntil : null,
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
        // Merged issues live on in the one they went into.
        op.notExists(a.mergedInto),
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
 * (the issue's sort key sorts after its events', so it comes first in descending order), plus one
 * Query per issue merged into it (at most MERGED_KEPT). A merged issue answers with `mergedInto` set
 * to the live issue at the end of its merge chain.
 */
export async function getLogIssue(ctx: TenantContext, issueId: string, now = Date.now()) {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const { data } = await logService.collections
    .issueEvents({ ...tenant, issueId })
    .go({ order: 'desc', limit: LATEST_EVENTS + 1 });
  const issue = data.logIssue[0];
  if (!issue) throw errors.notFound('Log issue');
  const mergedInto = issue.mergedInto
    ? ((await liveIssue(tenant, issue.mergedInto))?.issueId ?? issue.mergedInto)
    : null;
  const others = await Promise.all(
    (issue.mergedFrom ?? []).map(
      async (id) =>
        (await LogEvent.query.byIssue({ ...tenant, issueId: id }).go({ order: 'desc', limit: LATEST_EVENTS })).data,
    ),
  );
  const latestEvents = [...data.logEvent, ...others.flat()]
    .filter((e) => !isExpired(e.expiresAt, now))
    .sort((a, b) =>
      a.timestamp === b.timestamp ? b.eventId.localeCompare(a.eventId) : b.timestamp.localeCompare(a.timestamp),
    )
    .slice(0, LATEST_EVENTS)
    .map(toLogEvent);
  return { ...toIssue(issue), mergedInto, latestEvents };
}

/**
 * The last release whose events keep the issue resolved: for `next`, its latest release (or, with none,
 * every release seen so far); for a release the project has seen, the one before it; for a release not
 * seen yet, every release seen so far (it will be first seen later than they were).
 */
async function resolvedUpTo(ctx: TenantContext, issue: StoredIssue, resolvedIn: string) {
  const tenant = { projectId: ctx.projectId, env: ctx.env };
  const named = resolvedIn === 'next' ? issue.lastRelease : resolvedIn;
  const seq = named === undefined ? undefined : await seenSeq(tenant, named);
  if (seq === undefined) return lastSeq(tenant);
  return resolvedIn === 'next' ? seq : seq - 1;
}

/**
 * POST /log-issues/{id}/merge: the issue goes into `into` (see mergeIssue). Merging into itself, into
 * a merged issue or merging one already merged is 422: the caller names the live issue explicitly.
 */
export async function mergeLogIssue(ctx: TenantContext, issueId: string, into: string) {
  const outcome = await mergeIssue({ projectId: ctx.projectId, env: ctx.env }, issueId, into);
  if ('merged' in outcome) return toIssue(outcome.merged);
  if (outcome.refused === 'not_found') throw errors.notFound('Log issue');
  if (outcome.refused === 'same') throw problem('log_issue.merge_into_self');
  throw problem('log_issue.already_merged', { id: outcome.id, mergedInto: outcome.mergedInto });
}

/**
 * PATCH /log-issues/{id}: a status set by a person clears the regression mark. A merged issue has no
 * status of its own any more (422, naming the issue it went into, as merging it again does).
 * `resolvedIn` (with `resolved` only): `next`, the release after the issue's latest, or a release name;
 * events of that release's predecessors then keep it resolved (releases.ts orders them).
 */
export async function setLogIssueStatus(ctx: TenantContext, issueId: string, status: IssueStatus, resolvedIn?: string) {
  const key = { projectId: ctx.projectId, env: ctx.env, issueId };
  let after: StoredIssue | undefined;
  await commit({
    items: async () => {
      const { data: current } = await LogIssue.get(key).go({ consistent: true });
      if (!current) throw errors.notFound('Log issue');
      if (current.mergedInto)
        throw problem('log_issue.already_merged', { id: issueId, mergedInto: current.mergedInto });
      const upTo = resolvedIn === undefined ? undefined : await resolvedUpTo(ctx, current, resolvedIn);
      const release = upTo === undefined ? {} : { resolvedIn: must(resolvedIn, 'resolvedIn'), resolvedUpTo: upTo };
      after = { ...current, status, regressed: false, version: current.version + 1, ...release };
      if (upTo === undefined) delete after.resolvedIn;
      const set = LogIssue.patch(key).set({ status, regressed: false, ...release });
      return {
        issue: update(
          (upTo === undefined && current.resolvedIn ? set.remove(['resolvedIn', 'resolvedUpTo']) : set)
            .add({ version: 1 })
            .where((a, op) => `${op.eq(a.version, current.version)} AND ${op.notExists(a.mergedInto)}`),
        ),
        // Resolving announces it (once: a second PATCH finds it resolved already).
        event:
          status === 'resolved' &&
          current.status !== 'resolved' &&
          eventItem(ctx, 'log_issue.resolved', { issue: toIssue(after) }),
      };
    },
    // Changed meanwhile (a grouping consumer counted into it): read it again.
    refused: () => undefined,
    exhausted: () => errors.conflict('The log issue'),
  });
  return toIssue(must(after, 'the changed issue'));
}

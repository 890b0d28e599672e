import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { csvQuery, dateQuery, integer, pageMeta, pageQuery, uuid } from '../../kernel/api/schemas.js';
import { eventScope, logEvent, logEventInput, logIssue, releaseName } from './schemas.js';
import { ISSUE_STATUSES, LOG_LEVELS } from './values.js';

const list = { ...pageMeta };
const issueParams = { id: uuid };
const common = { group: 'logs' as const, tags: ['Logs'], tenancy: 'project' as const };

export const logRoutes = {
  ingestLogs: defineRoute({
    ...common,
    id: 'ingestLogs',
    method: 'POST',
    path: '/logs',
    summary: 'Ingest log events (grouped into log issues asynchronously)',
    scope: 'logs:write',
    body: v.strictObject({ events: v.pipe(v.array(logEventInput), v.minLength(1), v.maxLength(100)) }),
    response: v.object({ accepted: integer }),
    problems: ['plan.log_event_limit'],
  }),
  listLogs: defineRoute({
    ...common,
    id: 'listLogs',
    method: 'GET',
    path: '/logs',
    summary: 'List raw log events, newest first',
    scope: 'logs:read',
    query: {
      level: csvQuery(LOG_LEVELS),
      scope: v.optional(eventScope),
      search: v.optional(v.string()),
      fingerprint: v.optional(v.string()),
      dateFrom: dateQuery,
      dateTo: dateQuery,
      ...pageQuery({ defaultLimit: 50 }),
    },
    response: v.object({ logs: v.array(logEvent), ...list }),
  }),
  listLogIssues: defineRoute({
    ...common,
    id: 'listLogIssues',
    method: 'GET',
    path: '/log-issues',
    summary: 'List log issues, most recently seen first',
    scope: 'logs:read',
    query: {
      status: csvQuery(ISSUE_STATUSES),
      level: csvQuery(LOG_LEVELS),
      scope: v.optional(eventScope),
      search: v.optional(v.string()),
      ...pageQuery(),
    },
    response: v.object({ issues: v.array(logIssue), ...list }),
  }),
  getLogIssue: defineRoute({
    ...common,
    id: 'getLogIssue',
    method: 'GET',
    path: '/log-issues/{id}',
    summary: 'Get a log issue with its latest events',
    scope: 'logs:read',
    params: issueParams,
    response: v.object({ ...logIssue.entries, latestEvents: v.array(logEvent) }),
  }),
  updateLogIssue: defineRoute({
    ...common,
    id: 'updateLogIssue',
    method: 'PATCH',
    path: '/log-issues/{id}',
    summary: 'Set a log issue status (resolved, optionally in a release)',
    description:
      "`resolvedIn` (with `status: resolved`): `next` (the release after the issue's `lastRelease`) or a release name. Then an event of that release or a later one reopens the issue (regressed, `regressedIn` naming the release), and a late event of an earlier release is counted without reopening it; releases are ordered by when the project first saw them. Without `resolvedIn`, any new event reopens a resolved issue. An event that names no release always does.",
    scope: 'logs:write',
    params: issueParams,
    // `resolvedIn` belongs to a resolve only: the variant refuses it beside any other status.
    body: v.variant('status', [
      v.strictObject({ status: v.literal('resolved'), resolvedIn: v.optional(releaseName) }),
      v.strictObject({ status: v.picklist(ISSUE_STATUSES.filter((s) => s !== 'resolved')) }),
    ]),
    response: logIssue,
    problems: ['log_issue.already_merged'],
  }),
  mergeLogIssue: defineRoute({
    ...common,
    id: 'mergeLogIssue',
    method: 'POST',
    path: '/log-issues/{id}/merge',
    summary: 'Merge a log issue into another (counts summed; its events and fingerprints go with it)',
    scope: 'logs:write',
    params: issueParams,
    body: v.strictObject({ into: uuid }),
    response: logIssue,
    errors: [404, 422],
    problems: ['log_issue.merge_into_self', 'log_issue.already_merged'],
  }),
} satisfies Record<string, RouteDef>;

import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.js';
import { csvQuery, dateQuery, depthWithin, integer, isoDateTime, jsonObject, MAX_JSON_DEPTH, pageMeta, pageQuery, uuid } from '../http/schemas.js';
import { ISSUE_STATUSES, LOG_LEVELS } from './levels.js';

const DAY_MS = 86_400_000;
const MAX_CONTEXT_BYTES = 16 * 1024;

/** A stored scope is at most this long, so a longer `scope` filter is a mistake worth a 422. */
const eventScope = v.pipe(v.string(), v.maxLength(200));

const logEventInput = v.strictObject({
  level: v.picklist(LOG_LEVELS),
  message: v.pipe(v.string(), v.minLength(1), v.maxLength(10_000)),
  scope: v.optional(eventScope),
  timestamp: v.optional(
    v.pipe(
      isoDateTime,
      // Judged only for a parseable value, so a bad one gets one message, not a false "future" too.
      v.check((s) => Number.isNaN(Date.parse(s)) || Date.parse(s) <= Date.now() + DAY_MS, 'Must be at most 24 hours in the future'),
    ),
  ),
  stack: v.optional(v.pipe(v.string(), v.maxLength(50_000))),
  // The caller's object exactly as sent (a record schema would rebuild it, turning arrays into objects
  // and dropping keys such as __proto__).
  context: v.optional(
    v.pipe(
      jsonObject,
      // Runs even when the depth check failed (valibot goes on): a too-deep value is that check's to report.
      v.check((o) => !depthWithin(o, MAX_JSON_DEPTH) || Buffer.byteLength(JSON.stringify(o)) <= MAX_CONTEXT_BYTES, 'Must be at most 16 KB serialized'),
    ),
  ),
  fingerprint: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), v.minLength(1), v.maxLength(20))),
});

const logEvent = v.object({
  id: uuid,
  level: v.picklist(LOG_LEVELS),
  message: v.string(),
  scope: v.nullable(v.string()),
  timestamp: v.string(),
  fingerprint: v.string(),
  issueId: uuid,
  stack: v.nullable(v.string()),
  context: v.nullable(v.record(v.string(), v.unknown())),
  receivedAt: v.string(),
});

const logIssue = v.object({
  id: uuid,
  fingerprint: v.string(),
  title: v.string(),
  level: v.picklist(LOG_LEVELS),
  scope: v.nullable(v.string()),
  status: v.picklist(ISSUE_STATUSES),
  regressed: v.boolean(),
  count: integer,
  firstSeenAt: v.string(),
  lastSeenAt: v.string(),
  lastEventId: uuid,
  groupingVersion: integer,
  mergedInto: v.nullable(uuid),
});

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
    summary: 'Set a log issue status',
    scope: 'logs:write',
    params: issueParams,
    body: v.strictObject({ status: v.picklist(ISSUE_STATUSES) }),
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

import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { ingestLogs } from '@helpdesk/core/logs/ingest';
import { getLogIssue, listLogIssues, mergeLogIssue, setLogIssueStatus } from '@helpdesk/core/logs/issues';
import { listLogEvents } from '@helpdesk/core/logs/list-events';
import { logRoutes } from '@helpdesk/core/logs/routes';

export const handler = createGroupHandler(logRoutes, {
  ingestLogs: async ({ ctx, body }) => ingestLogs(ctx, body.events),
  listLogs: async ({ ctx, query }) => listLogEvents(ctx, query),
  listLogIssues: async ({ ctx, query }) => listLogIssues(ctx, query),
  getLogIssue: async ({ ctx, params }) => getLogIssue(ctx, params.id),
  updateLogIssue: async ({ ctx, params, body }) => setLogIssueStatus(ctx, params.id, body.status),
  mergeLogIssue: async ({ ctx, params, body }) => mergeLogIssue(ctx, params.id, body.into),
});

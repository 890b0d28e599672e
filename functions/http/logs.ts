import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';
import { logRoutes } from '@helpdesk/core/logs/routes';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const ingest = onFirstCall(() => import('@helpdesk/core/logs/ingest'));
const events = onFirstCall(() => import('@helpdesk/core/logs/list-events'));
const issues = onFirstCall(() => import('@helpdesk/core/logs/issues'));

export const handler = createGroupHandler(logRoutes, {
  ingestLogs: async ({ ctx, body }) => (await ingest()).ingestLogs(ctx, body.events),
  listLogs: async ({ ctx, query }) => (await events()).listLogEvents(ctx, query),
  listLogIssues: async ({ ctx, query }) => (await issues()).listLogIssues(ctx, query),
  getLogIssue: async ({ ctx, params }) => (await issues()).getLogIssue(ctx, params.id),
  updateLogIssue: async ({ ctx, params, body }) => (await issues()).setLogIssueStatus(ctx, params.id, body.status),
  mergeLogIssue: async ({ ctx, params, body }) => (await issues()).mergeLogIssue(ctx, params.id, body.into),
});

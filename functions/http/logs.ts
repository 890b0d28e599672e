import { logRoutes } from '@helpdesk/core/areas/logs/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  ingest: () => import('@helpdesk/core/areas/logs/ingest'),
  events: () => import('@helpdesk/core/areas/logs/list-events'),
  issues: () => import('@helpdesk/core/areas/logs/issues'),
  issueAlerts: () => import('@helpdesk/core/areas/logs/issue-alerts'),
  rules: () => import('@helpdesk/core/areas/logs/alert-rules'),
});

export const handler = createGroupHandler(logRoutes, {
  ingestLogs: async ({ ctx, body }) => (await use.ingest()).ingestLogs(ctx, body.events),
  listLogs: async ({ ctx, query }) => (await use.events()).listLogEvents(ctx, query),
  listLogIssues: async ({ ctx, query }) => (await use.issues()).listLogIssues(ctx, query),
  getLogIssue: async ({ ctx, params }) => (await use.issues()).getLogIssue(ctx, params.id),
  updateLogIssue: async ({ ctx, params, body }) =>
    (await use.issues()).setLogIssueStatus(
      ctx,
      params.id,
      body.status,
      'resolvedIn' in body ? body.resolvedIn : undefined,
    ),
  mergeLogIssue: async ({ ctx, params, body }) => (await use.issues()).mergeLogIssue(ctx, params.id, body.into),
  snoozeLogIssue: async ({ ctx, params, body }) => (await use.issueAlerts()).snoozeLogIssue(ctx, params.id, body.until),
  unsnoozeLogIssue: async ({ ctx, params }) => (await use.issueAlerts()).snoozeLogIssue(ctx, params.id, null),
  getLogIssueActivity: async ({ ctx, params }) => (await use.issueAlerts()).issueActivity(ctx, params.id),
  listLogAlerts: async ({ ctx, query }) => (await use.issueAlerts()).listLogAlerts(ctx, query),
  listLogAlertRules: async ({ ctx }) => (await use.rules()).listAlertRules(ctx),
  createLogAlertRule: async ({ ctx, body }) => (await use.rules()).createAlertRule(ctx, body),
  getLogAlertRule: async ({ ctx, params }) => (await use.rules()).getAlertRule(ctx, params.ruleId),
  updateLogAlertRule: async ({ ctx, params, body }) => (await use.rules()).updateAlertRule(ctx, params.ruleId, body),
  deleteLogAlertRule: async ({ ctx, params }) => (await use.rules()).deleteAlertRule(ctx, params.ruleId),
});

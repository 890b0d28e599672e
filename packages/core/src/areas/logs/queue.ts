import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { ENVIRONMENTS } from '../../kernel/tenant.js';
import { LOG_LEVELS } from './values.js';

const environment = v.picklist(ENVIRONMENTS);

/** logs: one fingerprint's new events of one ingest request (logs/events.ts `GroupingMessage`). */
const logGrouping = v.object({
  /** For the issue's catalog events (messages queued before it existed have none: no event then). */
  accountId: v.optional(v.string()),
  projectId: v.string(),
  env: environment,
  issueId: v.string(),
  fingerprint: v.string(),
  title: v.string(),
  scope: v.optional(v.string()),
  events: v.array(
    v.object({ id: v.string(), level: v.picklist(LOG_LEVELS), timestamp: v.string(), release: v.optional(v.string()) }),
  ),
  learn: v.optional(v.boolean()),
  previousIssueId: v.optional(v.string()),
});

export const logsQueue = defineQueue({
  name: 'logs',
  consumer: 'log-grouping',
  batchSize: 10,
  visibilityTimeout: 60,
  maxReceiveCount: 5,
  message: logGrouping,
});

/**
 * logAlerts: an issue counted new events (committed with the count when the project has alert rules);
 * the consumer checks the rules against the issue and its counters (alerts.ts).
 */
export const logAlertsQueue = defineQueue({
  name: 'logAlerts',
  consumer: 'log-alerts',
  batchSize: 10,
  visibilityTimeout: 60,
  maxReceiveCount: 5,
  message: v.object({
    accountId: v.string(),
    projectId: v.string(),
    env: environment,
    issueId: v.string(),
    /** The count made the issue. */
    created: v.boolean(),
    /** The count reopened a resolved issue. */
    regressed: v.boolean(),
    /** The minutes (`2026-11-26T22:46`) the new events fell in: the windows ending there are checked. */
    minutes: v.pipe(v.array(v.string()), v.maxLength(50)),
  }),
});

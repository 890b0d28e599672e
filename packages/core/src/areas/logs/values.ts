import { ALERT_TRIGGERS } from '../../kernel/log-alert-terms.js';

/** Log levels, lowest to highest: an issue's level is the highest it has seen. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const levelRank = (level: LogLevel) => LOG_LEVELS.indexOf(level);
export const higherLevel = (a: LogLevel, b: LogLevel) => (levelRank(b) > levelRank(a) ? b : a);

export const ISSUE_STATUSES = ['open', 'acknowledged', 'resolved', 'ignored'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

export { ALERT_TRIGGERS };
export type AlertTrigger = (typeof ALERT_TRIGGERS)[number];
export const MAX_ALERT_RULES = 50;
export const DEFAULT_COOLDOWN_MINUTES = 30;
/** A window of at most a day: one Query of the issue's minute counters. */
export const MAX_WINDOW_MINUTES = 1440;
/** The spike baseline: the issue's rate over this many hours before the window. */
export const BASELINE_HOURS = 24;
/** Recipients of one rule's mail (members and addresses together). */
export const MAX_ALERT_RECIPIENTS = 20;
/** Alerts GET /log-alerts reads (newest first); older ones are kept until they expire. */
export const ALERTS_LISTED = 1_000;

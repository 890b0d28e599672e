/** Log levels, lowest to highest: an issue's level is the highest it has seen. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const levelRank = (level: LogLevel) => LOG_LEVELS.indexOf(level);
export const higherLevel = (a: LogLevel, b: LogLevel) => (levelRank(b) > levelRank(a) ? b : a);

export const ISSUE_STATUSES = ['open', 'acknowledged', 'resolved', 'ignored'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

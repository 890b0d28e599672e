import type * as v from 'valibot';
import type { QueueInput } from '../../kernel/ports/queue.js';
import type { logsQueue } from './queue.js';
import type { logEventInput } from './schemas.js';
import type { LogLevel } from './values.js';

/** A log event as the API accepts it (the route's schema output). */
export type LogEventInput = v.InferOutput<typeof logEventInput>;

/** What the grouping consumer gets for one fingerprint of one request (the logs queue's message): the issue and its new events. */
export type GroupingMessage = QueueInput<typeof logsQueue>;

interface StoredEvent {
  eventId: string;
  level: LogLevel;
  message: string;
  scope?: string;
  timestamp: string;
  fingerprint: string;
  issueId: string;
  stack?: string;
  context?: string;
  release?: string;
  environment?: string;
  receivedAt: string;
}

export const toLogEvent = (e: StoredEvent) => ({
  id: e.eventId,
  level: e.level,
  message: e.message,
  scope: e.scope ?? null,
  timestamp: e.timestamp,
  fingerprint: e.fingerprint,
  issueId: e.issueId,
  stack: e.stack ?? null,
  context: e.context === undefined ? null : (JSON.parse(e.context) as Record<string, unknown>),
  release: e.release ?? null,
  environment: e.environment ?? null,
  receivedAt: e.receivedAt,
});

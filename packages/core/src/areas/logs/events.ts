import type * as v from 'valibot';
import type { logEventInput } from './schemas.js';
import type { LogLevel } from './values.js';

/** A log event as the API accepts it (the route's schema output). */
export type LogEventInput = v.InferOutput<typeof logEventInput>;

/** What the grouping consumer gets for one fingerprint of one request: the issue and its new events. */
export interface GroupingMessage {
  projectId: string;
  env: 'live' | 'sandbox';
  issueId: string;
  fingerprint: string;
  title: string;
  scope?: string;
  events: { id: string; level: LogLevel; timestamp: string }[];
  /** Grouped by message: the consumer learns the title's template and may land the events in another issue. */
  learn?: boolean;
  /** The issue grouping version 1 gave the first event (message-grouped events only): see fingerprint-v1.ts. */
  previousIssueId?: string;
}

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
  receivedAt: e.receivedAt,
});

import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { LOG_RETENTION_DAYS } from '../../identity/plans.js';
import { consumeQuota, releaseQuota } from '../../identity/quota.js';
import { ttlIn } from '../../kernel/db/client.js';
import { AGAIN, retrying } from '../../kernel/db/retry.js';
import { must } from '../../kernel/must.js';
import { outboxRecord, putOutbox } from '../../kernel/ports/outbox.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { LogEvent } from './entities.js';
import type { GroupingMessage, LogEventInput } from './events.js';
import { fingerprintOf, issueIdFor } from './fingerprint.js';
import { fingerprintV1 } from './fingerprint-v1.js';
import { logsQueue } from './queue.js';

const DAY_SECONDS = 86_400;
/** Events per grouping message: its markers plus the issue write fit one DynamoDB transaction (100 items). */
const EVENTS_PER_MESSAGE = 50;

type EventRow = EntityItem<typeof LogEvent>;

async function putAll(rows: EventRow[]) {
  let pending = rows;
  await retrying(
    async () => {
      // ElectroDB splits into BatchWriteItem requests of 25 and hands back what DynamoDB left unprocessed.
      const { unprocessed } = await LogEvent.put(pending).go({ concurrency: 4 });
      const left = new Set(unprocessed.map((key) => key.eventId));
      pending = pending.filter((row) => left.has(row.eventId));
      return pending.length ? AGAIN : undefined;
    },
    () => new Error(`DynamoDB left ${pending.length} log events unprocessed`),
  );
}

type Grouped = { row: EventRow; title: string; learn: boolean; previousIssueId?: string };

function groupingMessages(accountId: string, rows: Grouped[]): GroupingMessage[] {
  const byIssue = new Map<string, Grouped[]>();
  for (const r of rows) {
    const group = byIssue.get(r.row.issueId);
    if (group) group.push(r);
    else byIssue.set(r.row.issueId, [r]);
  }
  return [...byIssue.values()].flatMap((group) => {
    const { row: first, title, learn, previousIssueId } = must(group[0], 'an event of the group');
    const messages: GroupingMessage[] = [];
    for (let i = 0; i < group.length; i += EVENTS_PER_MESSAGE) {
      messages.push({
        accountId,
        projectId: first.projectId,
        env: first.env,
        issueId: first.issueId,
        fingerprint: first.fingerprint,
        title,
        ...(first.scope === undefined ? {} : { scope: first.scope }),
        events: group.slice(i, i + EVENTS_PER_MESSAGE).map(({ row }) => ({
          id: row.eventId,
          level: row.level,
          timestamp: row.timestamp,
          ...(row.release === undefined ? {} : { release: row.release }),
        })),
        ...(learn ? { learn, previousIssueId } : {}),
      });
    }
    return messages;
  });
}

/**
 * POST /logs: counts the batch against the live quota (all or nothing), stores the raw events with the
 * plan's retention, and queues them for grouping. Issues are written by the consumer, off this path.
 */
export async function ingestLogs(ctx: TenantContext, events: LogEventInput[], now = new Date()) {
  await consumeQuota(ctx, 'logEvents', events.length, now);
  const receivedAt = now.toISOString();
  const expiresAt = ttlIn(LOG_RETENTION_DAYS[ctx.plan] * DAY_SECONDS, now.getTime());
  const rows = events.map((input) => {
    const { fingerprint, title, learn } = fingerprintOf(input);
    const row: EventRow = {
      projectId: ctx.projectId,
      env: ctx.env,
      eventId: randomUUID(),
      timestamp: input.timestamp ? new Date(input.timestamp).toISOString() : receivedAt,
      level: input.level,
      message: input.message,
      scope: input.scope,
      stack: input.stack,
      context: input.context === undefined ? undefined : JSON.stringify(input.context),
      release: input.release,
      environment: input.environment,
      fingerprint,
      issueId: issueIdFor(ctx.projectId, ctx.env, fingerprint),
      receivedAt,
      expiresAt,
    };
    const previousIssueId = learn ? issueIdFor(ctx.projectId, ctx.env, fingerprintV1(input)) : undefined;
    return { row, title, learn, previousIssueId };
  });
  try {
    await putAll(rows.map((r) => r.row));
  } catch (err) {
    await releaseQuota(ctx, 'logEvents', events.length, now);
    throw err;
  }
  // After the events (a 2xx means both are stored): each grouping message is an outbox item.
  await putOutbox(groupingMessages(ctx.accountId, rows).map((m) => outboxRecord(logsQueue, m)));
  return { accepted: rows.length };
}

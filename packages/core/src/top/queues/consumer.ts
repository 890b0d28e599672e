import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { assertDeployedConfig } from '../../kernel/config.js';
import { logger, withLogContext } from '../../kernel/logger.js';
import { groupOf, type QueueMessage, type QueueSpec } from '../../kernel/ports/queue.js';
import { loadSigningSecret } from '../../kernel/secrets.js';

/**
 * How a consumer works through the valid messages of a batch:
 * - `each`: one message at a time per call, all side by side; with `inOrderBy`, messages sharing a key
 *   run one after another in batch order (they would only conflict), different keys side by side;
 * - `together`: messages sharing a `groupBy` key go to one call (one snapshot write for many
 *   articles); when it throws, every message of the group is redelivered.
 */
export type ConsumerWork<M> =
  | { each: (message: M) => Promise<unknown>; inOrderBy?: (message: M) => string }
  | { together: (messages: [M, ...M[]]) => Promise<unknown>; groupBy: (message: M) => string };

type Read<M> = { ok: true; message: M } | { ok: false; reason: string };

/** A record's body as the queue's message, or why it can never be one. */
function readRecord<Q extends QueueSpec>(queue: Q, record: Pick<SQSRecord, 'body'>): Read<QueueMessage<Q>> {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    return { ok: false, reason: 'The body is not JSON' };
  }
  const parsed = v.safeParse(queue.message, body);
  if (parsed.success) return { ok: true, message: parsed.output as QueueMessage<Q> };
  const issues = parsed.issues.slice(0, 5).map((issue) => `${v.getDotPath(issue) ?? '(message)'}: ${issue.message}`);
  return { ok: false, reason: `Not a ${queue.name} message: ${issues.join('; ')}` };
}

/**
 * The SQS handler of a queue: validates every record against the queue's schema, runs the valid ones,
 * and reports only the failed records in `batchItemFailures` (the event source mapping has partial
 * batch responses on), so one bad message never holds up its neighbours. A poison message (not JSON,
 * or not the queue's schema) is logged with its id and reported too: SQS redelivers it up to the
 * queue's maxReceiveCount and then moves it to the dead-letter queue, where it can be inspected.
 */
export function consumer<Q extends QueueSpec>(queue: Q, work: ConsumerWork<QueueMessage<Q>>) {
  assertDeployedConfig();
  type M = QueueMessage<Q>;
  // Read at cold start, awaited by every batch (a no-op once read, until its refresh is due).
  loadSigningSecret().catch(() => undefined);
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    await loadSigningSecret();
    const failed: string[] = [];
    const groups = new Map<unknown, { record: SQSRecord; message: M }[]>();
    for (const record of event.Records) {
      const read = readRecord(queue, record);
      if (!read.ok) {
        logger.error('Poison message: it can never be processed; SQS will move it to the dead-letter queue', {
          queue: queue.name,
          messageId: record.messageId,
          receiveCount: record.attributes?.ApproximateReceiveCount,
          reason: read.reason,
        });
        failed.push(record.messageId);
        continue;
      }
      const key = 'groupBy' in work ? work.groupBy(read.message) : (work.inOrderBy?.(read.message) ?? record);
      groups.set(key, [...(groups.get(key) ?? []), { record, message: read.message }]);
    }
    // Every log line of a message's work carries its id and tenant, set once here.
    const attempt = (items: { record: SQSRecord; message: M }[], run: () => Promise<unknown>) => {
      const messageIds = items.map((item) => item.record.messageId);
      const fields = {
        queue: queue.name,
        messageId: messageIds.length === 1 ? messageIds[0] : messageIds,
        tenant: groupOf(items[0]?.message),
      };
      return withLogContext(fields, async () => {
        try {
          await run();
        } catch (error) {
          logger.error('Queue message failed; SQS will redeliver it', { error: error as Error });
          failed.push(...messageIds);
        }
      });
    };
    await Promise.all(
      [...groups.values()].map(async (items) => {
        if ('together' in work)
          return attempt(items, () => work.together(items.map((item) => item.message) as [M, ...M[]]));
        for (const item of items) await attempt([item], () => work.each(item.message));
      }),
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

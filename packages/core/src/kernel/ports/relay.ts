import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../config.js';
import { documentClient } from '../db/client.js';
import { logger } from '../logger.js';
import { MAX_DELAY_SECONDS, type OutboxRecord, outboxKeyOf } from './outbox.js';
import { type QueueEntry, sendEntries } from './queue.js';
import { scheduleStored } from './scheduler.js';

/** SQS holds a message back for up to 15 minutes: a send due sooner needs no schedule. */

export interface RelayOptions {
  /**
   * Delete each item once its message is on its queue: only the benches, which relay by hand.
   * Deployed, the relay leaves items to expire (SQS keeps the message); the local stack marks an item
   * consumed once its message was (its queue stand-in forgets messages on a restart). Items that
   * became schedules are deleted everywhere: relaying one again after its schedule fired would fire it twice.
   */
  deleteSent: boolean;
  now?: number;
  /** The DynamoDB client for deletes (the bench relays with one of its own, so its requests are not the API's). */
  client?: Pick<typeof documentClient, 'send'>;
}

/** A scheduled item due within SQS's delay limit (or overdue, after a slow relay) goes on its queue directly. */
function asEntry(record: OutboxRecord, now: number, named: boolean): QueueEntry | undefined {
  let delaySeconds = record.delaySeconds;
  if (record.at) {
    const wait = Math.ceil((Date.parse(record.at) - now) / 1000);
    if (wait > MAX_DELAY_SECONDS) return undefined;
    delaySeconds = Math.max(0, wait);
  }
  return {
    queue: record.queue,
    body: record.body,
    delaySeconds,
    group: record.group,
    dedupId: record.sk,
    // The item a message came from, for a consumer host that deletes it once consumed (the local stack).
    ...(named ? { outboxKey: outboxKeyOf(record) } : {}),
  };
}

/**
 * The outbox relay: puts each item's message on its queue (with its delay, FIFO group and the item's
 * id as deduplication id) or creates its schedule; answers the items it could not move, for a retry.
 */
export async function relayOutbox(records: OutboxRecord[], options: RelayOptions): Promise<OutboxRecord[]> {
  const now = options.now ?? Date.now();
  const failed: OutboxRecord[] = [];
  const done: OutboxRecord[] = [];
  const entries = new Map<QueueEntry, OutboxRecord>();
  for (const record of records) {
    const entry = asEntry(record, now, !options.deleteSent);
    if (entry) {
      entries.set(entry, record);
      continue;
    }
    try {
      await scheduleStored({ sk: record.sk, at: record.at as string, queue: record.queue, body: record.body });
      done.push(record);
    } catch (error) {
      logger.error('Outbox relay could not create a schedule; it will retry', { id: record.sk, error });
      failed.push(record);
    }
  }
  let refused: QueueEntry[] = [];
  if (entries.size) {
    try {
      refused = await sendEntries([...entries.keys()]);
    } catch (error) {
      logger.error('Outbox relay could not reach SQS; it will retry', { items: entries.size, error });
      refused = [...entries.keys()];
    }
  }
  const refusedRecords = new Set(refused.map((e) => entries.get(e)));
  for (const record of entries.values()) {
    if (refusedRecords.has(record)) failed.push(record);
    else if (options.deleteSent) done.push(record);
  }
  await deleteRecords(done, options.client);
  return failed;
}

/** Deletes relayed items, 25 per request (a delete of an item already gone succeeds). */
export async function deleteRecords(
  records: Pick<OutboxRecord, 'pk' | 'sk'>[],
  client: Pick<typeof documentClient, 'send'> = documentClient,
) {
  for (let i = 0; i < records.length; i += 25) {
    let requests = records.slice(i, i + 25).map((r) => ({ DeleteRequest: { Key: { pk: r.pk, sk: r.sk } } }));
    for (let attempt = 0; requests.length && attempt < 10; attempt++) {
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [env.tableName]: requests } }));
      requests = (out.UnprocessedItems?.[env.tableName] ?? []) as typeof requests;
    }
  }
}

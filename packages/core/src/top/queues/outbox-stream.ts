import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { assertDeployedConfig } from '../../kernel/config.js';
import { logger } from '../../kernel/logger.js';
import { isOutboxRecord, type OutboxRecord, relayable } from '../../kernel/ports/outbox.js';
import { relayOutbox } from '../../kernel/ports/relay.js';

/**
 * The deployed outbox relay: the table's stream (filtered by its event source mapping to new `outbox#`
 * items and those marked for a redrive) hands it batches in commit order per shard. Items go to their queues or become
 * schedules; the first item it could not move is reported, so Lambda retries the batch from there (the
 * items after it may go twice: consumers are idempotent, and FIFO queues deduplicate on the item id).
 */
export function outboxStreamRelay() {
  assertDeployedConfig();
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const items: { sequence: string; record: OutboxRecord }[] = [];
    for (const r of event.Records) {
      const image = r.dynamodb?.NewImage;
      const sequence = r.dynamodb?.SequenceNumber;
      if (!image || !sequence) continue;
      const item = unmarshall(image as Record<string, AttributeValue>);
      if (relayable(r.eventName, item) && isOutboxRecord(item)) items.push({ sequence, record: item });
    }
    const failed = new Set(
      await relayOutbox(
        items.map((i) => i.record),
        { deleteSent: false },
      ),
    );
    const first = items.find((i) => failed.has(i.record));
    if (first) logger.warn('Outbox items not relayed; the stream retries from the first', { failed: failed.size });
    return { batchItemFailures: first ? [{ itemIdentifier: first.sequence }] : [] };
  };
}

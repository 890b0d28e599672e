import { createHash, randomUUID } from 'node:crypto';
import { BatchWriteCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../config.js';
import { documentClient, ttlIn } from '../db/client.js';
import { put, type WriteItem } from '../db/commit.js';
import { AGAIN, retrying } from '../db/retry.js';
import { encodeMessage, groupOf, type QueueInput, type QueueSpec } from './queue.js';

/**
 * The transactional outbox: every side effect of a write (a webhook event, a mail, an index request,
 * a schedule, a queued job) is an item written in the same transaction as the change that causes it.
 * The relay (DynamoDB Streams deployed, the local stack's stream poller locally) puts it on its queue
 * or creates its schedule, at least once; consumers are idempotent on what the message names. Nothing
 * a committed write promised can be lost between the commit and a queue.
 */
export const OUTBOX_PREFIX = 'outbox#';
/**
 * The relay moves an item within seconds and leaves it to expire (no delete: one write fewer per side
 * effect). Three days outlive the stream's 24 hours, so `admin outbox:redrive` still finds the items of
 * a batch the relay gave up on.
 */
const OUTBOX_TTL_SECONDS = 3 * 86_400;

export interface OutboxRecord {
  /** `outbox#<shard>`: the tenant's shard, so one tenant's items reach the stream in commit order. */
  pk: string;
  /** The item's id: deterministic where a redone step must not add a second side effect. */
  sk: string;
  queue: string;
  /** The message, encoded as the queue carries it. */
  body: string;
  createdAt: string;
  delaySeconds?: number;
  /** A one-time schedule at this time (ISO) instead of a send now. */
  at?: string;
  /** A FIFO queue's message group: the tenant. */
  group?: string;
  expiresAt: number;
  /** Times an operator asked for the item to be relayed again (`admin outbox:redrive`). */
  redrive?: number;
  /** The local stack only: when its message was consumed (its queue stand-in forgets messages on a restart). */
  consumedAt?: string;
}

/** The attribute whose change makes the relay take an existing item again. */
export const REDRIVE_ATTRIBUTE = 'redrive';

/**
 * Whether a stream record asks the relay for an item: a new item, or one an operator marked for a
 * redrive (an update of `redrive`). The deployed event source mapping filters the same way.
 */
export const relayable = (eventName: string | undefined, image: { pk?: unknown; [REDRIVE_ATTRIBUTE]?: unknown }) =>
  typeof image.pk === 'string' &&
  image.pk.startsWith(OUTBOX_PREFIX) &&
  (eventName === 'INSERT' || (eventName === 'MODIFY' && image[REDRIVE_ATTRIBUTE] !== undefined));

/**
 * Marks items for the relay to take again (one update each, which the stream carries as a MODIFY with
 * `redrive`): the recovery for a batch the relay gave up on. Consumers are idempotent, so an item that
 * had been relayed after all only repeats a no-op. Answers how many items still existed.
 */
export async function redriveOutbox(records: Pick<OutboxRecord, 'pk' | 'sk'>[]) {
  let marked = 0;
  for (const r of records) {
    try {
      await documentClient.send(
        new UpdateCommand({
          TableName: env.tableName,
          Key: { pk: r.pk, sk: r.sk },
          UpdateExpression: 'ADD #redrive :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#redrive': REDRIVE_ATTRIBUTE },
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
      marked++;
    } catch (err) {
      // Gone meanwhile: consumed (locally) or expired.
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
  return marked;
}

/**
 * SQS's longest delay: the relay sends an item due within it as a delayed message, and makes a one-time
 * schedule for a later one (which alone can be cancelled).
 */
export const MAX_DELAY_SECONDS = 900;

export interface OutboxOptions {
  /** The item's id (default random): a step that may run twice gives the same id, and writes the item once. */
  id?: string;
  /** Delivered after this many seconds (at most 900, SQS's limit). */
  delaySeconds?: number;
  /** Delivered at this time, by a one-time schedule. */
  at?: Date;
}

/** 256 shards: a tenant's items share one (their order holds), different tenants spread over all. */
const shardOf = (key: string) => createHash('sha1').update(key).digest('hex').slice(0, 2);

export function outboxRecord<Q extends QueueSpec>(
  queue: Q,
  message: QueueInput<Q>,
  options: OutboxOptions = {},
  now = Date.now(),
): OutboxRecord {
  const id = options.id ?? randomUUID();
  const group = groupOf(message);
  return {
    pk: OUTBOX_PREFIX + shardOf(group ?? id),
    sk: id,
    queue: queue.name,
    body: encodeMessage(message),
    createdAt: new Date(now).toISOString(),
    ...(options.delaySeconds ? { delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.round(options.delaySeconds)) } : {}),
    ...(options.at ? { at: options.at.toISOString() } : {}),
    ...(group ? { group } : {}),
    expiresAt: ttlIn(OUTBOX_TTL_SECONDS, now),
  };
}

/** The outbox item of a message, as a named item of the write's `commit()`. */
export const outboxItem = <Q extends QueueSpec>(
  queue: Q,
  message: QueueInput<Q>,
  options: OutboxOptions = {},
): WriteItem => put({ TableName: env.tableName, Item: outboxRecord(queue, message, options) });

export const isOutboxRecord = (item: Record<string, unknown>): item is Record<string, unknown> & OutboxRecord =>
  typeof item.pk === 'string' && item.pk.startsWith(OUTBOX_PREFIX) && typeof item.body === 'string';

/** Where a record's message came from, as the relay names it on the queue (`pk`, newline, `sk`). */
export const outboxKeyOf = (record: Pick<OutboxRecord, 'pk' | 'sk'>) => `${record.pk}\n${record.sk}`;
export const parseOutboxKey = (key: string) => {
  const [pk, sk] = key.split('\n');
  return pk?.startsWith(OUTBOX_PREFIX) && sk ? { pk, sk } : undefined;
};

/**
 * Outbox items written on their own (BatchWriteItem, 25 a request), for a write that is not one
 * transaction: log ingestion stores its events first and their grouping messages after, so an
 * accepted request (a 2xx) has both, and events stored by a request that then failed are never counted.
 */
export async function putOutbox(records: OutboxRecord[]) {
  for (let i = 0; i < records.length; i += 25) {
    let requests = records.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await retrying(
      async () => {
        const out = await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.tableName]: requests } }));
        requests = (out.UnprocessedItems?.[env.tableName] ?? []) as typeof requests;
        return requests.length ? AGAIN : undefined;
      },
      () => new Error(`DynamoDB left ${requests.length} outbox items unprocessed`),
    );
  }
}

/** Every partition outbox items live in: the 256 tenant shards and the fired schedules'. */
const OUTBOX_PARTITIONS = [
  ...Array.from({ length: 256 }, (_, i) => OUTBOX_PREFIX + i.toString(16).padStart(2, '0')),
  `${OUTBOX_PREFIX}schedules`,
];
/** Partitions read at once. */
const PARALLEL_QUERIES = 16;

/** Which outbox items a read wants: created in [since, until] (ISO), for one queue, or not yet consumed (`pending`, the local stack). */
export interface OutboxWindow {
  since?: string;
  until?: string;
  queue?: string;
  pending?: boolean;
}

const inWindow = (
  item: Record<string, unknown>,
  window: OutboxWindow,
): item is Record<string, unknown> & OutboxRecord =>
  isOutboxRecord(item) &&
  !(window.queue && item.queue !== window.queue) &&
  !(window.pending && item.consumedAt) &&
  !(window.since && item.createdAt < window.since) &&
  !(window.until && item.createdAt > window.until);

type Reader = Pick<typeof documentClient, 'send'>;

/** Every page of a Query or Scan, keeping the items in the window. */
async function collect(
  client: Reader,
  command: (start?: Record<string, unknown>) => QueryCommand | ScanCommand,
  window: OutboxWindow,
  found: OutboxRecord[],
) {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await client.send(command(start) as QueryCommand);
    for (const item of out.Items ?? []) if (inWindow(item, window)) found.push(item);
    start = out.LastEvaluatedKey;
  } while (start);
}

const oldestFirst = (found: OutboxRecord[]) => found.sort((a, b) => a.createdAt.localeCompare(b.createdAt));

/**
 * Outbox items still in the table in a window, oldest first: a Query per outbox partition (257, sixteen
 * at a time), never a scan of the table. For `admin outbox:redrive`, the benches and tests.
 */
export async function scanOutbox(window: OutboxWindow = {}, client: Reader = documentClient) {
  const found: OutboxRecord[] = [];
  const query = (pk: string) => (start?: Record<string, unknown>) =>
    new QueryCommand({
      TableName: env.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ExclusiveStartKey: start,
    });
  for (let i = 0; i < OUTBOX_PARTITIONS.length; i += PARALLEL_QUERIES)
    await Promise.all(
      OUTBOX_PARTITIONS.slice(i, i + PARALLEL_QUERIES).map((pk) => collect(client, query(pk), window, found)),
    );
  return oldestFirst(found);
}

/**
 * The same by one Scan of the whole table: for the local stack's relay at its start, whose table is small
 * (a test file's holds a few hundred items), where 257 Queries took each test file two seconds of a loaded
 * DynamoDB Local. Deployed, a Scan would read every item of the table: use scanOutbox.
 */
export async function scanSmallTableOutbox(window: OutboxWindow = {}, client: Reader = documentClient) {
  const found: OutboxRecord[] = [];
  const scan = (start?: Record<string, unknown>) =>
    new ScanCommand({
      TableName: env.tableName,
      FilterExpression: 'begins_with(pk, :outbox)',
      ExpressionAttributeValues: { ':outbox': OUTBOX_PREFIX },
      ExclusiveStartKey: start,
    });
  await collect(client, scan, window, found);
  return oldestFirst(found);
}

/**
 * The local stack marks an item whose message was consumed (or left for the dead-letter queue) instead
 * of deleting it: the item stays until its TTL as it does deployed, so a step that writes the same
 * item again (a deterministic id) overwrites it, which the relay does not take, rather than
 * inserting it anew, which it would.
 */
export async function markConsumed(
  keys: Pick<OutboxRecord, 'pk' | 'sk'>[],
  client: Pick<typeof documentClient, 'send'> = documentClient,
) {
  const at = new Date().toISOString();
  await Promise.all(
    keys.map((Key) =>
      client
        .send(
          new UpdateCommand({
            TableName: env.tableName,
            Key,
            UpdateExpression: 'SET consumedAt = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at },
          }),
        )
        .catch((err: unknown) => {
          if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
        }),
    ),
  );
}

import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { isOutboxRecord, OUTBOX_PREFIX, relayable, scanSmallTableOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { relayOutbox } from '@helpdesk/core/kernel/ports/relay';

const region = 'us-east-1';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const DESCRIBE_EVERY_MS = 5_000;
/** How long after the last relayed item the relay counts as busy, and how far apart an idle one looks. */
const IDLE_AFTER_MS = 2_000;
const IDLE_MS = 1_000;

/**
 * The outbox relay of the local stack: reads DynamoDB Local's stream of the table (the Streams API,
 * as the deployed relay's event source mapping does) and relays each new outbox item. Its queue
 * stand-in forgets messages on a restart, so here an item counts as pending until its message has been
 * consumed (the queue pollers mark it `consumedAt`), and every pending item is relayed again at start.
 */
export async function startOutboxRelay(
  dynamodbEndpoint: string,
  tableName: string,
  options: { everyMs?: number } = {},
) {
  const config = { endpoint: dynamodbEndpoint, region, credentials };
  const dynamo = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${tableName} has no stream: the outbox relay cannot run`);

  /** Each shard's next iterator, and the last record relayed from it. */
  const iterators = new Map<string, string | undefined>();
  const lastSeen = new Map<string, string>();
  /** A shard found after the start is read from its first record: it began after the leftover scan. */
  const newShards = new Set<string>();
  const iteratorFor = async (shardId: string) => {
    const after = lastSeen.get(shardId);
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: newShards.has(shardId) ? 'TRIM_HORIZON' : 'LATEST' }),
      }),
    );
    return ShardIterator;
  };
  /**
   * DynamoDB Local answers DescribeStream (and every stream call) from one SQLite thread shared by all
   * tables, so a relay that described its stream on every pump made the suite's three workers wait on it.
   * A new shard only follows one that ends: the stream is described again when a shard ended, or after
   * DESCRIBE_EVERY_MS as a safety net.
   */
  let describedAt = 0;
  let describedBefore = false;
  let shardEnded = false;
  const discoverShards = async () => {
    if (!shardEnded && Date.now() - describedAt < DESCRIBE_EVERY_MS) return;
    shardEnded = false;
    describedAt = Date.now();
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
      if (describedBefore) newShards.add(shard.ShardId);
      iterators.set(shard.ShardId, await iteratorFor(shard.ShardId));
    }
    describedBefore = true;
  };
  // Iterators first, then the scan: an item written in between is relayed twice, never missed.
  await discoverShards();
  const leftover = await scanSmallTableOutbox({ pending: true });
  let retry = await relayOutbox(leftover, { deleteSent: false });

  // Only outbox items are read: the stream carries every write of the table (the deployed relay's filter).
  const outboxOf = (records: _Record[]) =>
    records
      .filter((r) => r.dynamodb?.NewImage?.pk?.S?.startsWith(OUTBOX_PREFIX))
      .map((r) => ({ event: r.eventName, item: unmarshall((r.dynamodb?.NewImage ?? {}) as never) }))
      .filter(({ event, item }) => relayable(event, item))
      .map(({ item }) => item)
      .filter(isOutboxRecord);

  /** Reads every shard to its current end and relays what it finds; answers how many items it moved. */
  const pumpOnce = async () => {
    let moved = 0;
    await discoverShards();
    for (const [shardId, iterator] of iterators) {
      let current = iterator;
      while (current) {
        let out: GetRecordsCommandOutput;
        try {
          out = await streams.send(new GetRecordsCommand({ ShardIterator: current }));
        } catch (err) {
          // DynamoDB Local trims and expires iterators freely: resume after the last record relayed.
          const name = (err as Error).name;
          if (name !== 'TrimmedDataAccessException' && name !== 'ExpiredIteratorException') throw err;
          current = await iteratorFor(shardId).catch(() => undefined);
          if (!current) {
            lastSeen.delete(shardId);
            current = await iteratorFor(shardId);
          }
          continue;
        }
        const seen = lastSeen.get(shardId);
        const fresh = (out.Records ?? []).filter(
          (r) => !seen || BigInt(r.dynamodb?.SequenceNumber ?? '0') > BigInt(seen),
        );
        const records = outboxOf(fresh);
        if (records.length) {
          retry = [...retry, ...(await relayOutbox(records, { deleteSent: false }))];
          moved += records.length;
        }
        const last = fresh.at(-1)?.dynamodb?.SequenceNumber;
        if (last) lastSeen.set(shardId, last);
        current = out.NextShardIterator;
        if (!current) shardEnded = true;
        if (!out.Records?.length) break;
      }
      iterators.set(shardId, current);
    }
    if (retry.length) {
      const again = retry;
      retry = await relayOutbox(again, { deleteSent: false });
      moved += again.length - retry.length;
    }
    return moved;
  };

  let running = true;
  let pumping: Promise<number> = Promise.resolve(0);
  /** A pump asked for but not started yet: callers meanwhile share it (each still gets one that starts after its call). */
  let waiting: Promise<number> | undefined;
  let movedAt = 0;
  const pump = () => {
    waiting ??= pumping
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        waiting = undefined;
        return pumpOnce();
      })
      .then((moved) => {
        if (moved > 0) movedAt = Date.now();
        return moved;
      })
      .catch((err: unknown) => {
        if (running) console.error('[outbox relay]', (err as Error).message);
        return 0;
      });
    pumping = waiting;
    return waiting;
  };
  // Every pump is a GetRecords per shard on DynamoDB Local's one SQLite thread: an idle stack looks
  // less often (up to every IDLE_MS), a busy one every `everyMs`; API answers and drains pump themselves.
  const every = options.everyMs ?? 100;
  const loop = (async () => {
    let wait = every;
    while (running) {
      await pump();
      wait = Date.now() - movedAt < IDLE_AFTER_MS ? every : Math.min(IDLE_MS, wait * 2);
      await new Promise((r) => setTimeout(r, wait));
    }
  })();

  return {
    /** Relays what the stream holds now (the local server calls it after each request, tests before they look). */
    pump,
    /** Whether items wait for a retry (SQS refused them). */
    pending: () => retry.length,
    async stop() {
      running = false;
      await loop;
      streams.destroy();
    },
  };
}

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** One DynamoDB request as the bench saw it. */
export interface DynamoRequest {
  command: string;
  index?: string;
  /** The item's sort key, when the request names one item (used to tell the rate-limit write apart). */
  sk?: string;
  capacity: number;
  /** Units spent on each global secondary index (ReturnConsumedCapacity INDEXES). */
  indexes: Record<string, number>;
  read: boolean;
  consistent: boolean;
  items: number;
}

// Client commands and their document-client twins (whose context may carry either name).
const READS = new Set([
  'GetItem',
  'Get',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchGet',
  'TransactGetItems',
  'TransactGet',
]);

type Consumed = { CapacityUnits?: number; GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }> };
type CapacityOut = Consumed | Consumed[] | undefined;
const listOf = (c: CapacityOut) => (Array.isArray(c) ? c : c ? [c] : []);
const unitsOf = (c: CapacityOut) => listOf(c).reduce((n, x) => n + (x.CapacityUnits ?? 0), 0);
const indexUnitsOf = (c: CapacityOut) => {
  const units: Record<string, number> = {};
  for (const x of listOf(c))
    for (const [name, i] of Object.entries(x.GlobalSecondaryIndexes ?? {}))
      units[name] = (units[name] ?? 0) + (i.CapacityUnits ?? 0);
  return units;
};
const skOf = (key: unknown) => {
  const sk = (key as { sk?: unknown } | undefined)?.sk;
  return typeof sk === 'string'
    ? sk
    : typeof (sk as { S?: string } | undefined)?.S === 'string'
      ? (sk as { S: string }).S
      : undefined;
};

/**
 * Counts every request the shared client sends while recording, with ReturnConsumedCapacity=INDEXES
 * added to it: the API's own DynamoDB cost per call, as the Lambda would pay it, and the share of it
 * spent keeping the secondary indexes.
 */
export class Recorder {
  private log: DynamoRequest[] | undefined;

  attach(client: DynamoDBClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const log = this.log;
        if (!log) return next(args);
        const input = args.input as Record<string, unknown>;
        args.input = { ...input, ReturnConsumedCapacity: 'INDEXES' };
        const out = await next(args);
        const output = out.output as {
          ConsumedCapacity?: CapacityOut;
          Count?: number;
          Item?: unknown;
          Items?: unknown[];
        };
        const command = (context.commandName ?? 'unknown').replace(/Command$/, '');
        log.push({
          command,
          index: input.IndexName as string | undefined,
          sk: skOf(input.Key),
          capacity: unitsOf(output.ConsumedCapacity),
          indexes: indexUnitsOf(output.ConsumedCapacity),
          read: READS.has(command),
          consistent: input.ConsistentRead === true,
          items: output.Count ?? (output.Items ? output.Items.length : output.Item ? 1 : 0),
        });
        return out;
      },
      { step: 'initialize', name: 'benchConsumedCapacity', priority: 'low' },
    );
  }

  /** Runs fn and returns the requests it caused (nothing else may use the client meanwhile). */
  async record<T>(fn: () => Promise<T>): Promise<{ result: T; requests: DynamoRequest[]; ms: number }> {
    this.log = [];
    const start = performance.now();
    try {
      const result = await fn();
      return { result, requests: this.log, ms: performance.now() - start };
    } finally {
      this.log = undefined;
    }
  }
}

export const readUnits = (rs: DynamoRequest[]) => rs.filter((r) => r.read).reduce((n, r) => n + r.capacity, 0);
export const writeUnits = (rs: DynamoRequest[]) => rs.filter((r) => !r.read).reduce((n, r) => n + r.capacity, 0);
/** 1 RCU reads 4 KB strongly consistent, 8 KB eventually consistent. */
export const bytesRead = (rs: DynamoRequest[]) =>
  rs.filter((r) => r.read).reduce((n, r) => n + r.capacity * (r.consistent ? 4096 : 8192), 0);
/** Write units spent on each secondary index, summed over the requests. */
export const indexWriteUnits = (rs: DynamoRequest[]) => {
  const units: Record<string, number> = {};
  for (const r of rs.filter((x) => !x.read))
    for (const [name, n] of Object.entries(r.indexes)) units[name] = (units[name] ?? 0) + n;
  return units;
};
export const isRateLimitWrite = (r: DynamoRequest) =>
  r.command === 'UpdateItem' && (r.sk ?? '').toLowerCase().includes('ratewindow');
export const describe = (rs: DynamoRequest[]) =>
  rs.map((r) => `${r.command}${r.index ? `(${r.index})` : ''}`).join(', ');

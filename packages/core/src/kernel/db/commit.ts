import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { Unavailable } from '../errors/unavailable.js';
import { documentClient } from './client.js';
import { transactionCancellationCodes } from './errors.js';
import { AGAIN, retrying } from './retry.js';

/**
 * Every multi-item write of the service: one TransactWriteItems of named items, under the one retry
 * policy (db/retry.ts), with refusals reported by item name.
 *
 * Items are ElectroDB operations (`put(Ticket.create(item))`, `update(Customer.patch(key).set(…))`) or,
 * for the few compact items ElectroDB does not model (ticket search rows, list counts, quota counters),
 * the same request parameters written by hand; either way they go through these four constructors.
 */

type Item = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
/** An ElectroDB operation (anything with `.params()`) or its parameters. */
type Operation = { params(): object } | object;
const paramsOf = (op: Operation): Record<string, unknown> =>
  ('params' in op && typeof op.params === 'function' ? op.params() : op) as Record<string, unknown>;

/** A write item: build them with `put`, `update`, `remove` and `check`. */
export type WriteItem = { readonly item: Item };

export const put = (op: Operation): WriteItem => ({ item: { Put: paramsOf(op) as never } });
export const update = (op: Operation): WriteItem => {
  // ElectroDB may ask for ReturnValues, which a transaction item does not take.
  const { ReturnValues: _, ...rest } = paramsOf(op);
  return { item: { Update: rest as never } };
};
export const remove = (op: Operation): WriteItem => {
  const { ReturnValues: _, ...rest } = paramsOf(op);
  return { item: { Delete: rest as never } };
};
/** A condition on an item the transaction does not write (`TableName`, `Key`, `ConditionExpression`). */
export const check = (op: Operation): WriteItem => ({ item: { ConditionCheck: paramsOf(op) as never } });

/** The items of one attempt by name; a name may stand for several items, and absent ones are skipped. */
export type NamedItems = Record<string, WriteItem | readonly WriteItem[] | false | undefined>;

export interface CommitSpec {
  /** Builds the items from what the caller holds now; called before every attempt. */
  items: () => NamedItems | Promise<NamedItems>;
  /**
   * Called with the names of the items whose condition failed. Throw a catalog problem to answer the
   * caller; re-read whatever went stale and answer nothing to try again (the re-read hook); or answer
   * `stop` to give up quietly (`commit` then answers false).
   */
  refused?: (names: ReadonlySet<string>) => void | 'stop' | Promise<void | 'stop'>;
  /**
   * Items that may be left out when their condition fails, such as copies under a customer deleted
   * meanwhile: the rest is committed again at once, without them.
   */
  optional?: readonly string[];
  /** The error once every attempt lost a race: `errors.conflict(…)` in the API. */
  exhausted: () => Error;
}

/** Codes after which the same transaction may succeed. */
const TRANSIENT = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'None']);
/** Of those, the ones that say DynamoDB throttled: when they outlast the attempts, the table is unavailable. */
const THROTTLED = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

/** Commits the items; answers true once committed, false when `refused` answered `stop`. */
export function commit(spec: CommitSpec): Promise<boolean> {
  const dropped = new Set<string>();
  let throttled = false;
  return retrying(
    async () => {
      for (;;) {
        const named = Object.entries(await spec.items()).flatMap(([name, value]) =>
          dropped.has(name) || !value
            ? []
            : (Array.isArray(value) ? value : [value as WriteItem]).map((w) => ({ name, item: w.item })),
        );
        if (named.length === 0) return true;
        const codes = await transact(named.map((n) => n.item));
        if (!codes) return true;
        throttled = codes.some((code) => THROTTLED.has(code));
        const refused = new Set(named.filter((_, i) => codes[i] === 'ConditionalCheckFailed').map((n) => n.name));
        const unexpected = codes.filter((code) => code !== 'ConditionalCheckFailed' && !TRANSIENT.has(code));
        if (unexpected.length) throw new Error(`Transaction cancelled: ${codes.join(', ')}`);
        if (refused.size > 0 && [...refused].every((name) => spec.optional?.includes(name))) {
          for (const name of refused) dropped.add(name);
          continue;
        }
        if (refused.size > 0 && (await spec.refused?.(refused)) === 'stop') return false;
        return AGAIN;
      }
    },
    () => (throttled ? new Unavailable('DynamoDB') : spec.exhausted()),
  );
}

/** The cancellation codes of a refused transaction, in item order; undefined once committed. */
async function transact(items: Item[]): Promise<string[] | undefined> {
  try {
    await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
    return undefined;
  } catch (err) {
    const codes = transactionCancellationCodes(err);
    if (!codes) throw err;
    return codes;
  }
}

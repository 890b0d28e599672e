import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.js';
import { transactionCancellationCodes } from './errors.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * ElectroDB operations' `.params()` as items of one TransactWriteItems, next to raw items of other
 * areas (a quota update, a counter) that ElectroDB's own transactions cannot hold.
 */
export const put = (params: object): TransactItem => ({ Put: params as never });
export const update = (params: object): TransactItem => {
  // ElectroDB may ask for ReturnValues, which a transaction item does not take.
  const { ReturnValues: _, ...rest } = params as { ReturnValues?: unknown };
  return { Update: rest as never };
};

/** Commits the items; a cancellation answers each item's reason code ('None' for the items that passed). */
export async function transactWrite(items: TransactItem[]): Promise<{ ok: true } | { ok: false; codes: string[] }> {
  try {
    await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
    return { ok: true };
  } catch (err) {
    const codes = transactionCancellationCodes(err);
    if (!codes) throw err;
    return { ok: false, codes };
  }
}

/** A short, jittered pause before retrying a transaction that collided with another on a shared item. */
export const conflictPause = (attempt: number) => new Promise((r) => setTimeout(r, 10 * attempt + Math.random() * 25));

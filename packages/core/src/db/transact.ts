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

/** How often an API write retries a transaction that collided with concurrent changes before answering 409. */
export const WRITE_ATTEMPTS = 12;

/** A short, jittered pause before retrying a transaction that collided with another on a shared item. */
export const conflictPause = (attempt: number) => new Promise((r) => setTimeout(r, 10 * attempt + Math.random() * 25));

/**
 * Commits the items with updates of their copies under a customer (`copies`, after the items). A
 * customer's delete removes those copies, so a copy whose existence condition fails is left out and
 * the rest is committed again; the items' own codes keep their positions.
 */
export async function transactWriteWithCopies(items: TransactItem[], copies: TransactItem[]) {
  const result = await transactWrite([...items, ...copies]);
  if (result.ok) return result;
  const own = result.codes.slice(0, items.length);
  const copyCodes = result.codes.slice(items.length);
  if (own.some((c) => c !== 'None') || !copyCodes.includes('ConditionalCheckFailed')) return result;
  return transactWrite([...items, ...copies.filter((_, i) => copyCodes[i] !== 'ConditionalCheckFailed')]);
}

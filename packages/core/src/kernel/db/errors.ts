/** True when DynamoDB refused a write because its condition failed (directly or wrapped by ElectroDB). */
export const isConditionFailure = (err: unknown): boolean => {
  let current: unknown = err;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { name?: string; code?: string; message?: string; cause?: unknown };
    if (e.name === 'ConditionalCheckFailedException' || e.code === 'ConditionalCheckFailedException') return true;
    if (typeof e.message === 'string' && e.message.includes('ConditionalCheckFailed')) return true;
    current = e.cause;
  }
  return false;
};

/** The cancellation reasons of a failed TransactWriteItems, wrapped or not. */
export const transactionCancellationCodes = (err: unknown): string[] | undefined => {
  let current: unknown = err;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { name?: string; CancellationReasons?: { Code?: string }[]; cause?: unknown };
    if (e.name === 'TransactionCanceledException') return (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
    current = e.cause;
  }
  return undefined;
};

import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { check, commit, put, remove, update } from '@helpdesk/core/kernel/db/commit';
import { WRITE_ATTEMPTS } from '@helpdesk/core/kernel/db/retry';
import { isUnavailable, Unavailable } from '@helpdesk/core/kernel/errors/unavailable';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * commit() against a mocked DynamoDB: what it sends, how it reads refusals by item name, when it
 * tries again and when it stops. (test/foundation/commit.test.ts runs the same rules on DynamoDB Local.)
 */
const db = mockClient(DynamoDBDocumentClient);
beforeEach(() => db.reset());
afterEach(() => db.reset());

const item = (id: string) => ({ TableName: 't', Item: { pk: id, sk: id } });
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const sent = () => db.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
const conflict = () => new Error('gave up');

describe('commit() with a mocked DynamoDB', () => {
  it('sends the named items as one transaction, in order, leaving out absent ones', async () => {
    db.on(TransactWriteCommand).resolves({});
    const done = await commit({
      items: () => ({
        ticket: put(item('a')),
        counts: [update({ TableName: 't', Key: { pk: 'c' }, UpdateExpression: 'ADD n :one', ReturnValues: 'ALL_NEW' })],
        copy: false,
        gone: remove({ TableName: 't', Key: { pk: 'x' }, ReturnValues: 'ALL_OLD' }),
        member: check({ TableName: 't', Key: { pk: 'm' }, ConditionExpression: 'attribute_exists(pk)' }),
        absent: undefined,
      }),
      exhausted: conflict,
    });
    expect(done).toBe(true);
    expect(sent()).toEqual([
      [
        { Put: item('a') },
        // A transaction item takes no ReturnValues.
        { Update: { TableName: 't', Key: { pk: 'c' }, UpdateExpression: 'ADD n :one' } },
        { Delete: { TableName: 't', Key: { pk: 'x' } } },
        { ConditionCheck: { TableName: 't', Key: { pk: 'm' }, ConditionExpression: 'attribute_exists(pk)' } },
      ],
    ]);
  });

  it('reports refusals by item name, whichever position they had, and a thrown problem reaches the caller', async () => {
    db.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed', 'None'));
    const seen: string[][] = [];
    await expect(
      commit({
        items: () => ({ first: put(item('1')), email: [put(item('2')), put(item('3'))] }),
        refused: (names) => {
          seen.push([...names]);
          throw new Error('customer.email_taken');
        },
        exhausted: conflict,
      }),
    ).rejects.toThrow('customer.email_taken');
    expect(seen).toEqual([['email']]);
    expect(sent()).toHaveLength(1);
  });

  it('re-reads and tries again when the refusal hook answers nothing, and stops when it answers stop', async () => {
    db.on(TransactWriteCommand).rejectsOnce(cancelled('ConditionalCheckFailed')).resolves({});
    let reads = 0;
    const items = () => {
      reads++;
      return { ticket: put(item(`v${reads}`)) };
    };
    expect(await commit({ items, refused: () => undefined, exhausted: conflict })).toBe(true);
    expect(reads).toBe(2);
    expect(sent().map((items) => items[0])).toEqual([{ Put: item('v1') }, { Put: item('v2') }]);

    db.reset();
    db.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed'));
    expect(
      await commit({ items: () => ({ ticket: put(item('a')) }), refused: () => 'stop', exhausted: conflict }),
    ).toBe(false);
    expect(sent()).toHaveLength(1);
  });

  it('drops refused optional items and commits the rest at once', async () => {
    db.on(TransactWriteCommand).rejectsOnce(cancelled('None', 'ConditionalCheckFailed')).resolves({});
    const done = await commit({
      items: () => ({ ticket: put(item('t')), copy: put(item('copy')) }),
      optional: ['copy'],
      refused: () => {
        throw new Error('the optional refusal must not reach the hook');
      },
      exhausted: conflict,
    });
    expect(done).toBe(true);
    expect(sent()).toEqual([[{ Put: item('t') }, { Put: item('copy') }], [{ Put: item('t') }]]);
  });

  it('retries transaction conflicts and throttled items, and gives up after the attempts with exhausted()', async () => {
    db.on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict'))
      .rejectsOnce(cancelled('ThrottlingError'))
      .resolves({});
    expect(await commit({ items: () => ({ a: put(item('a')) }), exhausted: conflict })).toBe(true);
    expect(sent()).toHaveLength(3);

    db.reset();
    db.on(TransactWriteCommand).rejects(cancelled('TransactionConflict'));
    await expect(commit({ items: () => ({ a: put(item('a')) }), exhausted: conflict })).rejects.toThrow('gave up');
    expect(sent()).toHaveLength(WRITE_ATTEMPTS);
  });

  it('says the table is unavailable (a 503, not a 409) when throttling outlasts the attempts', async () => {
    db.on(TransactWriteCommand).rejects(cancelled('None', 'ProvisionedThroughputExceeded'));
    const failure = await commit({ items: () => ({ a: put(item('a')) }), exhausted: conflict }).catch((e) => e);
    expect(failure).toBeInstanceOf(Unavailable);
    expect(isUnavailable(failure)).toBe(true);
    expect(sent()).toHaveLength(WRITE_ATTEMPTS);
  });

  it('fails at once on a cancellation it cannot retry, and on an error that is not a cancellation', async () => {
    db.on(TransactWriteCommand).rejects(cancelled('ValidationError'));
    await expect(commit({ items: () => ({ a: put(item('a')) }), exhausted: conflict })).rejects.toThrow(
      'Transaction cancelled: ValidationError',
    );
    expect(sent()).toHaveLength(1);

    db.reset();
    db.on(TransactWriteCommand).rejects(new Error('socket hang up'));
    await expect(commit({ items: () => ({ a: put(item('a')) }), exhausted: conflict })).rejects.toThrow(
      'socket hang up',
    );
  });

  it('sends nothing when every item is absent', async () => {
    expect(await commit({ items: () => ({ a: false, b: undefined }), exhausted: conflict })).toBe(true);
    expect(sent()).toHaveLength(0);
  });
});

import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '@helpdesk/core/kernel/config';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import { check, commit, put, remove, update } from '@helpdesk/core/kernel/db/commit';
import { AGAIN, retrying, WRITE_ATTEMPTS } from '@helpdesk/core/kernel/db/retry';
import { describe, expect, it } from 'vitest';

/** commit() against DynamoDB Local: items here are raw parameters on this file's table. */
const key = () => ({ pk: `commit-test#${randomUUID()}`, sk: 'item' });
const putNew = (k: { pk: string; sk: string }, value = 1) =>
  put({ TableName: env.tableName, Item: { ...k, value }, ConditionExpression: 'attribute_not_exists(pk)' });
const read = async (k: { pk: string; sk: string }) =>
  (await documentClient.send(new GetCommand({ TableName: env.tableName, Key: k }))).Item;

describe('commit()', () => {
  it('writes every named item in one transaction; an absent or false name is skipped', async () => {
    const [a, b] = [key(), key()];
    await expect(
      commit({
        items: () => ({ a: putNew(a), b: [putNew(b, 2)], none: undefined, off: false }),
        exhausted: () => new Error('x'),
      }),
    ).resolves.toBe(true);
    expect(await read(a)).toMatchObject({ value: 1 });
    expect(await read(b)).toMatchObject({ value: 2 });
  });

  it('reports refusals by item name, and writes nothing of a refused transaction', async () => {
    const [taken, fresh] = [key(), key()];
    await commit({ items: () => ({ first: putNew(taken) }), exhausted: () => new Error('x') });
    const seen: string[][] = [];
    const refusal = new Error('taken');
    await expect(
      commit({
        // The refused item is not the first: positions would name the wrong one.
        items: () => ({ fresh: putNew(fresh), taken: putNew(taken, 9) }),
        refused: (names) => {
          seen.push([...names]);
          throw refusal;
        },
        exhausted: () => new Error('x'),
      }),
    ).rejects.toBe(refusal);
    expect(seen).toEqual([['taken']]);
    expect(await read(fresh)).toBeUndefined();
    expect(await read(taken)).toMatchObject({ value: 1 });
  });

  it('rebuilds the items after the re-read hook, and answers false when told to stop', async () => {
    const k = key();
    await commit({ items: () => ({ item: putNew(k, 1) }), exhausted: () => new Error('x') });
    let expected = 0;
    const bump = () =>
      update({
        TableName: env.tableName,
        Key: k,
        UpdateExpression: 'SET #v = :next',
        ConditionExpression: '#v = :expected',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':next': expected + 10, ':expected': expected },
      });
    let rereads = 0;
    await expect(
      commit({
        items: () => ({ item: bump() }),
        refused: async () => {
          rereads++;
          expected = (await read(k))!.value as number;
        },
        exhausted: () => new Error('x'),
      }),
    ).resolves.toBe(true);
    expect(rereads).toBe(1);
    expect(await read(k)).toMatchObject({ value: 11 });

    const stale = () =>
      update({
        TableName: env.tableName,
        Key: k,
        UpdateExpression: 'SET #v = :n',
        ConditionExpression: '#v = :old',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': 0, ':old': -1 },
      });
    await expect(
      commit({ items: () => ({ item: stale() }), refused: () => 'stop', exhausted: () => new Error('x') }),
    ).resolves.toBe(false);
  });

  it('drops an optional item whose condition fails and commits the rest at once', async () => {
    const [k, gone] = [key(), key()];
    let builds = 0;
    const copy = update({
      TableName: env.tableName,
      Key: gone,
      UpdateExpression: 'SET #v = :v',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':v': 5 },
    });
    await commit({
      items: () => {
        builds++;
        return { record: putNew(k), copy };
      },
      optional: ['copy'],
      refused: () => {
        throw new Error('an optional refusal is not the caller’s');
      },
      exhausted: () => new Error('x'),
    });
    expect(builds).toBe(2);
    expect(await read(k)).toMatchObject({ value: 1 });
    expect(await read(gone)).toBeUndefined();
  });

  it('gives up with exhausted() once every attempt was refused, and takes checks and deletes', async () => {
    const k = key();
    await commit({ items: () => ({ item: putNew(k) }), exhausted: () => new Error('x') });
    let attempts = 0;
    const exhausted = new Error('exhausted');
    await expect(
      commit({
        items: () => {
          attempts++;
          return {
            never: check({ TableName: env.tableName, Key: k, ConditionExpression: 'attribute_not_exists(pk)' }),
          };
        },
        exhausted: () => exhausted,
      }),
    ).rejects.toBe(exhausted);
    expect(attempts).toBe(WRITE_ATTEMPTS);

    await commit({
      items: () => ({ gone: remove({ TableName: env.tableName, Key: k }) }),
      exhausted: () => new Error('x'),
    });
    expect(await read(k)).toBeUndefined();
  });
});

describe('retrying()', () => {
  it('runs attempts until one answers, at most WRITE_ATTEMPTS times', async () => {
    let n = 0;
    await expect(
      retrying(
        async (attempt) => (attempt < 3 ? AGAIN : `done at ${attempt}`),
        () => new Error('x'),
      ),
    ).resolves.toBe('done at 3');
    await expect(
      retrying(
        () => {
          n++;
          return Promise.resolve(AGAIN);
        },
        () => new Error('gave up'),
      ),
    ).rejects.toThrow('gave up');
    expect(n).toBe(WRITE_ATTEMPTS);
  });
});

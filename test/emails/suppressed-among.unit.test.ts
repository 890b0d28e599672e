import { BatchGetCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { Suppression } from '@helpdesk/core/areas/emails/entities';
import { suppressedAmong } from '@helpdesk/core/areas/emails/suppression';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

/**
 * A batch of sends reads its recipients' suppressions in one BatchGetItem; a key DynamoDB leaves
 * unprocessed (throttling) must still be read, or a suppressed address would pass for a clean one.
 */
const db = mockClient(DynamoDBDocumentClient);
const TABLE = 'helpdesk-test';
beforeAll(() => setEnv({ TABLE_NAME: TABLE }));
afterAll(() => {
  setEnv({ TABLE_NAME: undefined });
  db.restore();
});

const scope = { projectId: 'p1', env: 'live' as const };
const stored = (email: string, reason: 'bounced' | 'complained') =>
  (Suppression.create({ ...scope, email, reason }).params() as { Item: Record<string, unknown> }).Item;
const keyOf = (email: string) =>
  (Suppression.get({ ...scope, email }).params() as { Key: Record<string, unknown> }).Key;

describe('suppressedAmong', () => {
  it('reads every recipient once in one BatchGetItem, then the keys left unprocessed one by one', async () => {
    db.reset();
    db.on(BatchGetCommand).resolves({
      Responses: { [TABLE]: [stored('a@example.com', 'bounced')] },
      UnprocessedKeys: { [TABLE]: { Keys: [keyOf('b@example.com'), keyOf('c@example.com')] } },
    });
    db.on(GetCommand, { Key: keyOf('b@example.com') }).resolves({ Item: stored('b@example.com', 'complained') });
    db.on(GetCommand, { Key: keyOf('c@example.com') }).resolves({});
    const found = await suppressedAmong(scope, [
      'A@Example.com',
      'Bee <b@example.com>',
      'c@example.com',
      'a@example.com',
      'd@example.com',
    ]);
    expect(Object.fromEntries(found)).toEqual({ 'a@example.com': 'bounced', 'b@example.com': 'complained' });
    const batch = db.commandCalls(BatchGetCommand);
    expect(batch).toHaveLength(1);
    expect(batch[0]!.args[0].input.RequestItems?.[TABLE]?.Keys).toHaveLength(4);
    expect(db.commandCalls(GetCommand)).toHaveLength(2);
  });

  it('makes no request for no addresses', async () => {
    db.reset();
    expect((await suppressedAmong(scope, [])).size).toBe(0);
    expect(db.calls()).toHaveLength(0);
  });
});

import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { requestSignIn } from '@helpdesk/core/top/console/sign-in';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

/**
 * A sign-in request does the same work whether or not the address belongs to a member (its timing
 * must not tell): two rate counters and one outbox item, never a member lookup or a mail.
 */
const db = mockClient(DynamoDBDocumentClient);
beforeAll(() => setEnv({ TABLE_NAME: 'helpdesk-test' }));
afterAll(() => {
  setEnv({ TABLE_NAME: undefined });
  db.restore();
});

/** The AWS calls one request makes, by command name, and what it queued. */
async function callsOf(email: string) {
  db.reset();
  db.onAnyCommand().resolves({ Attributes: { count: 1 } });
  expect(await requestSignIn(email, '203.0.113.7')).toBe('sent');
  const outbox = db.commandCalls(BatchWriteCommand).flatMap((c) => Object.values(c.args[0].input.RequestItems ?? {}));
  return {
    db: db.calls().map((c) => c.args[0].constructor.name),
    queued: outbox
      .flat()
      .map((w) => ({ queue: w.PutRequest?.Item?.queue, body: JSON.parse(String(w.PutRequest?.Item?.body)) })),
  };
}

describe('console sign-in requests', () => {
  it('make the same calls for any address: two counters, one outbox item', async () => {
    const member = await callsOf('admin@demo.example');
    const stranger = await callsOf('nobody@nowhere.example');
    expect(member.db).toEqual(['UpdateCommand', 'UpdateCommand', 'BatchWriteCommand']);
    expect(stranger.db).toEqual(member.db);
    expect(member.queued).toEqual([
      { queue: 'emails', body: { kind: 'console-sign-in', email: 'admin@demo.example' } },
    ]);
    expect(stranger.queued).toEqual([
      { queue: 'emails', body: { kind: 'console-sign-in', email: 'nobody@nowhere.example' } },
    ]);
  });
});

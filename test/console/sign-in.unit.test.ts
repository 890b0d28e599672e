import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { requestSignIn } from '@helpdesk/core/top/console/sign-in';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

/**
 * A sign-in request does the same work whether or not the address belongs to a member (its timing
 * must not tell): two rate counters and one queued job, never a member lookup or a mail.
 */
const db = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
beforeAll(() => setEnv({ TABLE_NAME: 'helpdesk-test', QUEUE_URL_EMAILS: 'http://127.0.0.1:1/emails' }));
afterAll(() => {
  setEnv({ TABLE_NAME: undefined, QUEUE_URL_EMAILS: undefined });
  db.restore();
  sqs.restore();
});

/** The AWS calls one request makes, by command name, and what it queued. */
async function callsOf(email: string) {
  db.reset();
  sqs.reset();
  db.onAnyCommand().resolves({ Attributes: { count: 1 } });
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
  expect(await requestSignIn(email, '203.0.113.7')).toBe('sent');
  return {
    db: db.calls().map((c) => c.args[0].constructor.name),
    queued: sqs.commandCalls(SendMessageCommand).map((c) => JSON.parse(c.args[0].input.MessageBody ?? '')),
  };
}

describe('console sign-in requests', () => {
  it('make the same calls for any address: two counters, one queued job', async () => {
    const member = await callsOf('admin@demo.example');
    const stranger = await callsOf('nobody@nowhere.example');
    expect(member.db).toEqual(['UpdateCommand', 'UpdateCommand']);
    expect(stranger.db).toEqual(member.db);
    expect(member.queued).toEqual([{ kind: 'console-sign-in', email: 'admin@demo.example' }]);
    expect(stranger.queued).toEqual([{ kind: 'console-sign-in', email: 'nobody@nowhere.example' }]);
  });
});

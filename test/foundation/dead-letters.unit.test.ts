import {
  DeleteMessageBatchCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deadLetterQueues, redriveDeadLetters } from '../../packages/cli/src/dead-letters.js';
import { setEnv } from '../support/env.js';

/** The admin CLI's dead-letter commands against a deployed stage's queue names (mocked SQS and DynamoDB). */
const sqs = mockClient(SQSClient);
const db = mockClient(DynamoDBDocumentClient);
const base = 'https://sqs.eu-west-1.amazonaws.com/123456789012/';
const VARS = { STAGE: 'prod', TABLE_NAME: 'helpdesk-prod', SIGNING_SECRET_ARN: 'helpdesk/prod/signing-secret' };
beforeAll(() => setEnv(VARS));
afterAll(() => {
  setEnv(Object.fromEntries(Object.keys(VARS).map((k) => [k, undefined])));
  sqs.restore();
  db.restore();
});
beforeEach(() => {
  sqs.reset();
  db.reset();
  sqs.on(ListQueuesCommand).resolves({
    QueueUrls: [
      `${base}Helpdesk-prod-AsyncwebhooksQueue1A2B3C4D-abcdef`,
      `${base}Helpdesk-prod-AsyncwebhooksDlq5E6F7A8B-ghijkl`,
      `${base}Helpdesk-prod-AsynclogsQueue11111111-x.fifo`,
      `${base}Helpdesk-prod-AsynclogsDlq22222222-y.fifo`,
      `${base}Helpdesk-prod-OutboxDlq33333333-z`,
      `${base}Helpdesk-staging-AsyncwebhooksDlq5E6F7A8B-other`,
    ],
  });
});

describe('dead-letter queues of a deployed stage', () => {
  it("are found by CloudFormation's names for this stage only, each with the queue it came from", async () => {
    const found = await deadLetterQueues();
    expect(found).toEqual([
      {
        name: 'webhooks',
        url: `${base}Helpdesk-prod-AsyncwebhooksDlq5E6F7A8B-ghijkl`,
        sourceUrl: `${base}Helpdesk-prod-AsyncwebhooksQueue1A2B3C4D-abcdef`,
      },
      {
        name: 'logs',
        url: `${base}Helpdesk-prod-AsynclogsDlq22222222-y.fifo`,
        sourceUrl: `${base}Helpdesk-prod-AsynclogsQueue11111111-x.fifo`,
      },
      { name: 'outbox', url: `${base}Helpdesk-prod-OutboxDlq33333333-z` },
    ]);
  });

  it('go back to a FIFO queue in their message group', async () => {
    const [, logs] = await deadLetterQueues();
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({
        Messages: [{ MessageId: 'm1', ReceiptHandle: 'r1', Body: '{"a":1}', Attributes: { MessageGroupId: 'p#live' } }],
      })
      .resolves({ Messages: [] });
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [{ Id: '0', MessageId: 'n', MD5OfMessageBody: '' }] });
    sqs.on(DeleteMessageBatchCommand).resolves({});
    expect(await redriveDeadLetters(logs!)).toEqual({ queue: 'logs', redriven: 1, skipped: [] });
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries).toEqual([
      { Id: '0', MessageBody: '{"a":1}', MessageGroupId: 'p#live', MessageDeduplicationId: 'm1' },
    ]);
    expect(sqs.commandCalls(DeleteMessageBatchCommand)[0]!.args[0].input.Entries).toEqual([
      { Id: '0', ReceiptHandle: 'r1' },
    ]);
  });

  it("of the relay mark the outbox items of each failed batch's time window, then leave the queue", async () => {
    const outbox = (await deadLetterQueues()).find((q) => q.name === 'outbox')!;
    const failure = {
      DDBStreamBatchInfo: {
        shardId: 'shardId-1',
        approximateArrivalOfFirstRecord: '2026-11-26T10:00:00Z',
        approximateArrivalOfLastRecord: '2026-11-26T10:00:05Z',
        batchSize: 2,
      },
    };
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({
        Messages: [
          { MessageId: 'f1', ReceiptHandle: 'r1', Body: JSON.stringify(failure) },
          { MessageId: 'junk', ReceiptHandle: 'r2', Body: 'not json' },
        ],
      })
      .resolves({ Messages: [] });
    sqs.on(DeleteMessageBatchCommand).resolves({});
    const item = (sk: string, createdAt: string) => ({ pk: 'outbox#ab', sk, queue: 'webhooks', body: '{}', createdAt });
    db.on(QueryCommand).resolves({ Items: [] });
    db.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'outbox#ab' } }).resolves({
      Items: [
        item('before', '2026-11-26T09:59:58.000Z'),
        item('first', '2026-11-26T09:59:59.500Z'),
        item('last', '2026-11-26T10:00:05.900Z'),
        item('after', '2026-11-26T10:00:07.000Z'),
      ],
    });
    db.on(UpdateCommand).resolves({});
    expect(await redriveDeadLetters(outbox)).toEqual({
      queue: 'outbox',
      redriven: 1,
      outboxItems: 2,
      skipped: ['junk'],
    });
    expect(db.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key)).toEqual([
      { pk: 'outbox#ab', sk: 'first' },
      { pk: 'outbox#ab', sk: 'last' },
    ]);
    expect(sqs.commandCalls(DeleteMessageBatchCommand)[0]!.args[0].input.Entries).toEqual([
      { Id: '0', ReceiptHandle: 'r1' },
    ]);
  });
});

import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { outboxRecord } from '@helpdesk/core/kernel/ports/outbox';
import { defineQueue } from '@helpdesk/core/kernel/ports/queue';
import { outboxStreamRelay } from '@helpdesk/core/top/queues/outbox-stream';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

/** The deployed relay's handler against mocked SQS and DynamoDB: what it sends, schedules and reports. */
const sqs = mockClient(SQSClient);
const db = mockClient(DynamoDBDocumentClient);
const jobs = defineQueue({
  name: 'emails',
  consumer: 'emails',
  batchSize: 10,
  visibilityTimeout: 30,
  maxReceiveCount: 3,
  message: v.object({ n: v.number() }),
});
const VARS = {
  TABLE_NAME: 'helpdesk-test',
  QUEUE_URL_EMAILS: 'https://sqs.test/emails',
  SCHEDULER_MODE: 'table',
  LOG_LEVEL: 'SILENT',
};

beforeAll(() => setEnv(VARS));
afterAll(() => {
  setEnv(Object.fromEntries(Object.keys(VARS).map((k) => [k, undefined])));
  sqs.restore();
  db.restore();
});
beforeEach(() => {
  sqs.reset();
  db.reset();
  db.onAnyCommand().resolves({});
});

const streamRecord = (item: object, sequence: string, eventName = 'INSERT') => ({
  eventName,
  dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as never, SequenceNumber: sequence },
});
const event = (...records: ReturnType<typeof streamRecord>[]) =>
  ({ Records: records }) as unknown as DynamoDBStreamEvent;
const sentBodies = () =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .flatMap((c) => c.args[0].input.Entries!.map((e) => JSON.parse(e.MessageBody!)));

describe('the outbox stream relay', () => {
  it('sends inserted outbox items in stream order, ignores other writes and removals, and keeps items to expire', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const relay = outboxStreamRelay();
    const result = await relay(
      event(
        streamRecord(outboxRecord(jobs, { n: 1 }), '1'),
        streamRecord({ pk: 'ticket#1', sk: 'x', body: '{}' }, '2'),
        streamRecord(outboxRecord(jobs, { n: 2 }), '3', 'REMOVE'),
        streamRecord(outboxRecord(jobs, { n: 3 }), '4'),
      ),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sentBodies()).toEqual([{ n: 1 }, { n: 3 }]);
    // Deployed, SQS holds the message: the item is left to its TTL, not deleted (one write fewer).
    expect(db.commandCalls(BatchWriteCommand)).toHaveLength(0);
  });

  it('puts an item due within 15 minutes on its queue with a delay, and a later one in a schedule (then deletes it)', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const now = Date.now();
    const soon = outboxRecord(jobs, { n: 1 }, { at: new Date(now + 120_000) });
    const later = outboxRecord(jobs, { n: 2 }, { at: new Date(now + 3_600_000) });
    expect(await outboxStreamRelay()(event(streamRecord(soon, '1'), streamRecord(later, '2')))).toEqual({
      batchItemFailures: [],
    });
    const [entry] = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries!;
    expect(JSON.parse(entry!.MessageBody!)).toEqual({ n: 1 });
    expect(entry!.DelaySeconds).toBeGreaterThanOrEqual(115);
    expect(entry!.DelaySeconds).toBeLessThanOrEqual(120);
    expect(db.commandCalls(PutCommand)).toHaveLength(1);
    const deleted = db.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!['helpdesk-test']!;
    expect(deleted).toEqual([{ DeleteRequest: { Key: { pk: later.pk, sk: later.sk } } }]);
  });

  it('reports the first item SQS refused, so Lambda retries the batch from there', async () => {
    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [{ Id: '0', MessageId: 'a', MD5OfMessageBody: '' }],
      Failed: [{ Id: '1', Code: 'InternalError', SenderFault: false }],
    });
    const result = await outboxStreamRelay()(
      event(
        streamRecord(outboxRecord(jobs, { n: 1 }), '10'),
        streamRecord(outboxRecord(jobs, { n: 2 }), '11'),
        streamRecord(outboxRecord(jobs, { n: 3 }), '12'),
      ),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '11' }] });
  });

  it('reports the first item when SQS cannot be reached at all', async () => {
    sqs.on(SendMessageBatchCommand).rejects(Object.assign(new Error('down'), { name: 'InternalError' }));
    const result = await outboxStreamRelay()(
      event(streamRecord(outboxRecord(jobs, { n: 1 }), '7'), streamRecord(outboxRecord(jobs, { n: 2 }), '8')),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '7' }] });
  });
});

import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  createTableInput,
  type Gsi,
  gsiInputOf,
  gsisOf,
  keyAttributesOf,
  STREAM,
  TTL_ATTRIBUTE,
} from '@helpdesk/core/kernel/db/table';
import { isFifo, QUEUE_NAMES, QUEUES, type QueueName } from '@helpdesk/core/top/queues/registry';
import type { Endpoints } from './emulators.js';

const region = 'us-east-1';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface Resources {
  tableName: string;
  bucket: string;
  queueUrls: Record<QueueName, string>;
  dlqUrls: Record<QueueName, string>;
}

async function untilIndexesActive(dynamo: DynamoDBClient, TableName: string) {
  for (const started = Date.now(); Date.now() - started < 120_000; ) {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName }));
    if (Table?.GlobalSecondaryIndexes?.every((g) => g.IndexStatus === 'ACTIVE')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The indexes of ${TableName} were not built within two minutes`);
}

/**
 * Adds indexes to a table one at a time, each once the one before is built, as a stack update does
 * (CloudFormation: one index per update). The migration tests play an upgrade with it.
 */
export async function addIndexes(dynamo: DynamoDBClient, tableName: string, gsis: Gsi[]) {
  for (const gsi of gsis) {
    await dynamo.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: keyAttributesOf(gsi),
        GlobalSecondaryIndexUpdates: [{ Create: gsiInputOf(gsi) }],
      }),
    );
    await untilIndexesActive(dynamo, tableName);
  }
}

/** Creates the table (if missing), the queues with their dead-letter queues, and the attachments bucket. */
export async function provision(
  endpoints: Endpoints,
  names: { tableName: string; queuePrefix: string; bucket: string },
): Promise<Resources> {
  const dynamo = new DynamoDBClient({ endpoint: endpoints.dynamodb, region, credentials });
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: names.tableName }));
    // A table kept under .local/ from before the outbox: give it the stream the relay reads.
    if (!Table?.StreamSpecification?.StreamEnabled)
      await dynamo.send(new UpdateTableCommand({ TableName: names.tableName, StreamSpecification: STREAM }));
    // One from before the ticket list indexes: add them as a stack update would, one at a time (the
    // demo seed then gives its tickets their keys: seed.ts).
    const present = new Set(Table?.GlobalSecondaryIndexes?.map((g) => g.IndexName));
    await addIndexes(
      dynamo,
      names.tableName,
      gsisOf().filter((g) => !present.has(g.name)),
    );
  } catch (err) {
    if ((err as Error).name !== 'ResourceNotFoundException') throw err;
    await dynamo.send(new CreateTableCommand(createTableInput(names.tableName)));
    await dynamo.send(
      new UpdateTimeToLiveCommand({
        TableName: names.tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  }
  dynamo.destroy();

  const sqs = new SQSClient({ endpoint: endpoints.sqs, region, credentials });
  const queueUrls = {} as Record<QueueName, string>;
  const dlqUrls = {} as Record<QueueName, string>;
  // Side by side: each test file provisions its own ten pairs before its first test.
  await Promise.all(
    QUEUE_NAMES.map(async (name) => {
      const spec = QUEUES[name];
      // A FIFO queue's name ends in .fifo and its dead-letter queue is FIFO too (as SQS requires).
      const fifo = isFifo(name);
      const suffix = fifo ? '.fifo' : '';
      const fifoAttributes: Record<string, string> = fifo
        ? { FifoQueue: 'true', ContentBasedDeduplication: 'false' }
        : {};
      const dlq = await sqs.send(
        new CreateQueueCommand({ QueueName: `${names.queuePrefix}-${name}-dlq${suffix}`, Attributes: fifoAttributes }),
      );
      const dlqArn = (
        await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))
      ).Attributes?.QueueArn;
      if (!dlqArn || !dlq.QueueUrl) throw new Error(`The queue stand-in did not create ${name}'s dead-letter queue`);
      const queue = await sqs.send(
        new CreateQueueCommand({
          QueueName: `${names.queuePrefix}-${name}${suffix}`,
          Attributes: {
            ...fifoAttributes,
            VisibilityTimeout: String(spec.visibilityTimeout),
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: spec.maxReceiveCount }),
          },
        }),
      );
      if (!queue.QueueUrl) throw new Error(`The queue stand-in did not create ${name}`);
      queueUrls[name] = queue.QueueUrl;
      dlqUrls[name] = dlq.QueueUrl;
    }),
  );
  sqs.destroy();

  const s3 = new S3Client({
    endpoint: endpoints.s3,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: names.bucket }));
  } catch (err) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes((err as Error).name)) throw err;
  }
  s3.destroy();
  return { tableName: names.tableName, bucket: names.bucket, queueUrls, dlqUrls };
}

/** The environment the handlers read (see core/config.ts), pointing them at the stand-ins. */
export function handlerEnvironment(endpoints: Endpoints, resources: Resources, extra: Record<string, string> = {}) {
  return {
    STAGE: 'local',
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: resources.tableName,
    DYNAMODB_ENDPOINT: endpoints.dynamodb,
    SQS_ENDPOINT: endpoints.sqs,
    S3_ENDPOINT: endpoints.s3,
    SES_ENDPOINT: endpoints.ses,
    ATTACHMENTS_BUCKET: resources.bucket,
    SCHEDULER_MODE: 'table',
    ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    ...Object.fromEntries(QUEUE_NAMES.map((q) => [`QUEUE_URL_${q.toUpperCase()}`, resources.queueUrls[q]])),
    ...extra,
  };
}

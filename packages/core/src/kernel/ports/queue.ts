import { randomUUID } from 'node:crypto';
import type * as v from 'valibot';
import { awsClientConfig, env } from '../config.js';
import { lazyClient } from '../lazy-client.js';

/**
 * An SQS queue and the consumer Lambda it feeds. Each area defines its queues beside the code that
 * produces their messages (`<area>/queue.ts`); the registry (top/queues/registry.ts) lists them all
 * for CDK, the local stack and the consumers.
 */
export interface QueueSpec<S extends v.GenericSchema = v.GenericSchema> {
  /** The queue's name in the registry; its URL is QUEUE_URL_<NAME>. */
  name: string;
  /** Consumer module under functions/queue/, exporting `handler`. */
  consumer: string;
  batchSize: number;
  /** Seconds a received message stays invisible; also the consumer Lambda's timeout budget. */
  visibilityTimeout: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** The message schema: `enqueue` takes its input type, `consumer` validates every record with it. */
  message: S;
  /**
   * A FIFO queue whose messages carry `projectId` and `env`: one tenant's messages (one SQS message
   * group) are handed to one consumer batch at a time, in order, so work on one tenant's resource is
   * serialized, never raced (this module sets the group). FIFO consumers take at most 10 a batch.
   */
  ordered?: true;
}

export const defineQueue = <const Q extends QueueSpec>(spec: Q) => spec;
/** What a producer puts on the queue. */
export type QueueInput<Q extends QueueSpec> = v.InferInput<Q['message']>;
/** What the queue's consumer gets after validation. */
export type QueueMessage<Q extends QueueSpec> = v.InferOutput<Q['message']>;

// The SQS client loads on the first send: reads never enqueue, so they do not pay for it at cold start.
const sqsClient = lazyClient(
  () => import('@aws-sdk/client-sqs'),
  (sdk) => new sdk.SQSClient(awsClientConfig('sqs')),
);

const urlOf = (queue: string) => {
  const url = env.queueUrl(queue);
  if (!url) throw new Error(`Queue ${queue} is not configured (QUEUE_URL_${queue.toUpperCase()})`);
  return url;
};

/**
 * JSON with every non-ASCII character escaped (\uXXXX, surrogate pairs as two escapes): the same value
 * for JSON.parse, but a body no SQS implementation can refuse for its characters (the local stand-in
 * rejects characters outside the Basic Multilingual Plane, such as emoji).
 */
export const encodeMessage = (message: unknown) =>
  JSON.stringify(message).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export interface EnqueueOptions {
  /** Up to 900 seconds (SQS's maximum). */
  delaySeconds?: number;
}

export async function enqueue<Q extends QueueSpec>(queue: Q, message: QueueInput<Q>, options: EnqueueOptions = {}) {
  await send(queue.name, message, options);
}

/** A message typed by its producer when it was stored (a fired schedule), put on its queue as it is. */
export async function enqueueStored(queue: string, message: unknown) {
  await send(queue, message, {});
}

async function send(queue: string, message: unknown, options: EnqueueOptions) {
  const { sdk, client: sqs } = await sqsClient();
  await sqs.send(
    new sdk.SendMessageCommand({
      QueueUrl: urlOf(queue),
      MessageBody: encodeMessage(message),
      ...ordering(queue, message),
      ...(options.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.round(options.delaySeconds))) } : {}),
    }),
  );
}

/**
 * On a FIFO queue (an ordered one in the registry, its URL ending in .fifo): the message's tenant as
 * its group, so one tenant's messages are consumed one batch at a time, and a random deduplication
 * id, since every send is its own message (an article published twice within SQS's five-minute
 * deduplication window must be indexed twice).
 */
function ordering(queue: string, message: unknown) {
  if (!urlOf(queue).endsWith('.fifo')) return {};
  const { projectId, env } = message as { projectId: string; env: string };
  return { MessageGroupId: `${projectId}#${env}`, MessageDeduplicationId: randomUUID() };
}

/** Sends many messages, ten per SQS request; throws if any entry failed. */
export async function enqueueMany<Q extends QueueSpec>(spec: Q, messages: QueueInput<Q>[]) {
  const queue = spec.name;
  const { sdk, client: sqs } = await sqsClient();
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const out = await sqs.send(
      new sdk.SendMessageBatchCommand({
        QueueUrl: urlOf(queue),
        Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: encodeMessage(m), ...ordering(queue, m) })),
      }),
    );
    if (out.Failed?.length)
      throw new Error(`SQS rejected ${out.Failed.length} messages on ${queue}: ${out.Failed[0]?.Message}`);
  }
}

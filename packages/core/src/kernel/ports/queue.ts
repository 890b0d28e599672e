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

/** One message as the relay sends it: already encoded, with where it came from. */
export interface QueueEntry {
  queue: string;
  body: string;
  /** Up to 900 seconds (SQS's maximum). */
  delaySeconds?: number;
  /** FIFO queues: the message group (a tenant) and the deduplication id (the outbox item's id). */
  group?: string;
  dedupId?: string;
  /** The outbox item the message came from (`pk` and `sk`), as a message attribute. */
  outboxKey?: string;
}

/** The message attribute that names a message's outbox item (the local stack deletes it once consumed). */
export const OUTBOX_ATTRIBUTE = 'outbox';

/**
 * Sends entries to their queues, ten per SQS request; answers the entries SQS refused (the caller
 * retries them). Only the outbox relay and the stand-ins for SES send: use cases write outbox items.
 */
export async function sendEntries(entries: QueueEntry[]): Promise<QueueEntry[]> {
  const { sdk, client: sqs } = await sqsClient();
  const refused: QueueEntry[] = [];
  const byQueue = new Map<string, QueueEntry[]>();
  for (const e of entries) byQueue.set(e.queue, [...(byQueue.get(e.queue) ?? []), e]);
  for (const [queue, list] of byQueue) {
    const url = urlOf(queue);
    const fifo = url.endsWith('.fifo');
    for (let i = 0; i < list.length; i += 10) {
      const chunk = list.slice(i, i + 10);
      const out = await sqs.send(
        new sdk.SendMessageBatchCommand({
          QueueUrl: url,
          Entries: chunk.map((e, j) => ({
            Id: String(j),
            MessageBody: e.body,
            ...(e.delaySeconds && !fifo
              ? { DelaySeconds: Math.min(900, Math.max(0, Math.round(e.delaySeconds))) }
              : {}),
            ...(fifo ? { MessageGroupId: e.group ?? 'none', MessageDeduplicationId: e.dedupId ?? randomUUID() } : {}),
            ...(e.outboxKey
              ? { MessageAttributes: { [OUTBOX_ATTRIBUTE]: { DataType: 'String', StringValue: e.outboxKey } } }
              : {}),
          })),
        }),
      );
      for (const f of out.Failed ?? []) {
        const entry = chunk[Number(f.Id)];
        if (entry) refused.push(entry);
      }
    }
  }
  return refused;
}

/**
 * Puts one message on its queue directly: for the stand-ins of external producers (SES notifying a
 * received mail, the local SMTP server) and tests. The service's own side effects go through the
 * outbox (kernel/db/outbox.ts), committed with the write that causes them.
 */
export async function enqueue<Q extends QueueSpec>(queue: Q, message: QueueInput<Q>) {
  const refused = await sendEntries([{ queue: queue.name, body: encodeMessage(message), group: groupOf(message) }]);
  if (refused.length) throw new Error(`SQS refused a message on ${queue.name}`);
}

/** The tenant a message belongs to (`projectId#env`), when it names one: a FIFO queue's message group. */
export function groupOf(message: unknown): string | undefined {
  const m = message as { projectId?: unknown; env?: unknown; ctx?: { projectId?: unknown; env?: unknown } };
  const projectId = m.projectId ?? m.ctx?.projectId;
  const env = m.env ?? m.ctx?.env;
  return typeof projectId === 'string' && typeof env === 'string' ? `${projectId}#${env}` : undefined;
}

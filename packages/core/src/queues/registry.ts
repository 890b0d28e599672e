import type * as v from 'valibot';
import { DELIVERY_SECONDS } from '../emails/values.js';
import { articleIndex, emailDelivery, inboundMail, logGrouping, sesEventMessage, webhookMessage } from './messages.js';

/**
 * The SQS queues and the consumer Lambda each one feeds. CDK builds queues, dead-letter queues and
 * event source mappings from this list; the local stack creates the same queues and polls them.
 */
export interface QueueSpec {
  /** Consumer module under functions/queue/, exporting `handler`. */
  consumer: string;
  batchSize: number;
  /** Seconds a received message stays invisible; also the consumer Lambda's timeout budget. */
  visibilityTimeout: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** The message schema: `enqueue` takes its input type, `consumer` validates every record with it. */
  message: v.GenericSchema;
  /**
   * A FIFO queue whose messages carry `projectId` and `env`: one tenant's messages (one SQS message
   * group) are handed to one consumer batch at a time, in order, so work on one tenant's resource is
   * serialized, never raced (ports/queue.ts sets the group). FIFO consumers take at most 10 a batch.
   */
  ordered?: true;
}

export const QUEUES = {
  webhooks: { consumer: 'webhooks', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5, message: webhookMessage },
  emails: { consumer: 'emails', batchSize: 10, visibilityTimeout: DELIVERY_SECONDS, maxReceiveCount: 5, message: emailDelivery },
  logs: { consumer: 'log-grouping', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5, message: logGrouping },
  // One project's search snapshot is rewritten by one batch at a time (issue 21: racing batches failed).
  articleIndex: {
    consumer: 'article-index',
    batchSize: 10,
    visibilityTimeout: 120,
    maxReceiveCount: 5,
    message: articleIndex,
    ordered: true,
  },
  sesEvents: { consumer: 'ses-events', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5, message: sesEventMessage },
  inbound: { consumer: 'inbound', batchSize: 5, visibilityTimeout: 120, maxReceiveCount: 5, message: inboundMail },
} as const satisfies Record<string, QueueSpec>;

export type QueueName = keyof typeof QUEUES;
/** Whether the queue is FIFO (its name then ends in `.fifo`, as SQS requires). */
export const isFifo = (queue: QueueName) => (QUEUES[queue] as QueueSpec).ordered === true;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];
/** What a producer puts on the queue. */
export type QueueInput<Q extends QueueName> = v.InferInput<(typeof QUEUES)[Q]['message']>;
/** What the queue's consumer gets after validation. */
export type QueueMessage<Q extends QueueName> = v.InferOutput<(typeof QUEUES)[Q]['message']>;

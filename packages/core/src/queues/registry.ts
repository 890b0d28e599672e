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
}

export const QUEUES = {
  webhooks: { consumer: 'webhooks', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5, message: webhookMessage },
  emails: { consumer: 'emails', batchSize: 10, visibilityTimeout: DELIVERY_SECONDS, maxReceiveCount: 5, message: emailDelivery },
  logs: { consumer: 'log-grouping', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5, message: logGrouping },
  articleIndex: { consumer: 'article-index', batchSize: 5, visibilityTimeout: 120, maxReceiveCount: 5, message: articleIndex },
  sesEvents: { consumer: 'ses-events', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5, message: sesEventMessage },
  inbound: { consumer: 'inbound', batchSize: 5, visibilityTimeout: 120, maxReceiveCount: 5, message: inboundMail },
} as const satisfies Record<string, QueueSpec>;

export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];
/** What a producer puts on the queue. */
export type QueueInput<Q extends QueueName> = v.InferInput<(typeof QUEUES)[Q]['message']>;
/** What the queue's consumer gets after validation. */
export type QueueMessage<Q extends QueueName> = v.InferOutput<(typeof QUEUES)[Q]['message']>;

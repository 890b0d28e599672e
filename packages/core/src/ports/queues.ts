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
}

export const QUEUES = {
  webhooks: { consumer: 'webhooks', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5 },
  emails: { consumer: 'emails', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5 },
  logs: { consumer: 'log-grouping', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5 },
  articleIndex: { consumer: 'article-index', batchSize: 5, visibilityTimeout: 120, maxReceiveCount: 5 },
  sesEvents: { consumer: 'ses-events', batchSize: 10, visibilityTimeout: 60, maxReceiveCount: 5 },
} as const satisfies Record<string, QueueSpec>;

export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

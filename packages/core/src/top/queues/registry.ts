import { articleIndexQueue } from '../../areas/articles/queue.js';
import { inboundQueue } from '../../areas/conversations/queue.js';
import { emailsQueue, sesEventsQueue } from '../../areas/emails/queue.js';
import { logAlertsQueue, logsQueue } from '../../areas/logs/queue.js';
import { slaReapplyQueue, slaTimersQueue } from '../../areas/sla/queue.js';
import { fieldCleanupQueue } from '../../areas/ticket-fields/queue.js';
import { webhooksQueue } from '../../areas/webhooks/queue.js';
import type { QueueInput as InputOf, QueueMessage as MessageOf, QueueSpec } from '../../kernel/ports/queue.js';

/**
 * Every SQS queue and the consumer Lambda it feeds, once. Each area defines its queues beside the code
 * that produces their messages; CDK builds queues, dead-letter queues and event source mappings from
 * this list, and the local stack creates the same queues and polls them.
 */
export const QUEUES = {
  webhooks: webhooksQueue,
  emails: emailsQueue,
  logs: logsQueue,
  articleIndex: articleIndexQueue,
  sesEvents: sesEventsQueue,
  inbound: inboundQueue,
  fieldCleanup: fieldCleanupQueue,
  slaTimers: slaTimersQueue,
  slaReapply: slaReapplyQueue,
  logAlerts: logAlertsQueue,
} as const satisfies Record<string, QueueSpec>;

export type QueueName = keyof typeof QUEUES;
for (const [name, spec] of Object.entries(QUEUES)) {
  if (spec.name !== name) throw new Error(`Queue ${spec.name} is registered as ${name}`);
}
/** Whether the queue is FIFO (its name then ends in `.fifo`, as SQS requires). */
export const isFifo = (queue: QueueName) => (QUEUES[queue] as QueueSpec).ordered === true;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];
/** What a producer puts on the queue. */
export type QueueInput<Q extends QueueName> = InputOf<(typeof QUEUES)[Q]>;
/** What the queue's consumer gets after validation. */
export type QueueMessage<Q extends QueueName> = MessageOf<(typeof QUEUES)[Q]>;

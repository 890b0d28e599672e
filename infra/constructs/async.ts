import { isFifo, QUEUE_NAMES, QUEUES, type QueueName } from '@helpdesk/core/top/queues/registry';
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { consumerGrants } from '../grants.js';
import { CONSUMER_MEMORY_MB, DEFAULT_MEMORY_MB } from '../memory.js';
import { entryExists, queueEntry } from '../paths.js';
import { HelpdeskFunction, type SharedResources } from './functions.js';

export interface AsyncProps {
  removalPolicy: RemovalPolicy;
}

/** How long a dead letter is kept (SQS maximum) so an operator can inspect and redrive it. */
const DLQ_RETENTION = Duration.days(14);

/**
 * A queue's visibility timeout is its consumer's whole budget (queues.ts); the function gets half of it,
 * so a batch that hits the timeout is not redelivered while the first invocation may still be running.
 */
const consumerTimeout = (visibilityTimeout: number) =>
  Duration.seconds(Math.max(10, Math.floor(visibilityTimeout / 2)));

/**
 * One SQS queue and one dead-letter queue per entry of QUEUES (packages/core/src/top/queues/registry.ts),
 * SSE-SQS encrypted and TLS only; consumers are added once the shared resources exist.
 */
export class Async extends Construct {
  readonly queues: Record<QueueName, sqs.Queue>;
  readonly deadLetterQueues: Record<QueueName, sqs.Queue>;
  readonly consumers: Partial<Record<QueueName, HelpdeskFunction>> = {};
  /** Queues whose consumer module does not exist yet (queue and DLQ are still created). */
  readonly missingConsumers: QueueName[] = [];

  constructor(scope: Construct, id: string, props: AsyncProps) {
    super(scope, id);
    const queues = {} as Record<QueueName, sqs.Queue>;
    const dlqs = {} as Record<QueueName, sqs.Queue>;
    for (const name of QUEUE_NAMES) {
      const spec = QUEUES[name];
      // An ordered queue (QueueSpec.orderedBy) is FIFO, and so is its dead-letter queue.
      const fifo = isFifo(name) ? { fifo: true, contentBasedDeduplication: false } : {};
      const dlq = new sqs.Queue(this, `${name}Dlq`, {
        ...fifo,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: DLQ_RETENTION,
        removalPolicy: props.removalPolicy,
      });
      queues[name] = new sqs.Queue(this, `${name}Queue`, {
        ...fifo,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(spec.visibilityTimeout),
        retentionPeriod: Duration.days(4),
        deadLetterQueue: { queue: dlq, maxReceiveCount: spec.maxReceiveCount },
        removalPolicy: props.removalPolicy,
      });
      dlqs[name] = dlq;
    }
    this.queues = queues;
    this.deadLetterQueues = dlqs;
  }

  /** A consumer Lambda per queue whose module exists under functions/queue/. */
  addConsumers(shared: SharedResources, functionsRoot?: string) {
    for (const name of QUEUE_NAMES) {
      const spec = QUEUES[name];
      const entry = queueEntry(spec.consumer, functionsRoot);
      if (!entryExists(entry)) {
        this.missingConsumers.push(name);
        continue;
      }
      const consumer = new HelpdeskFunction(this, `${name}Consumer`, {
        shared,
        entry,
        description: `Consumer of the ${name} queue (functions/queue/${spec.consumer}.ts)`,
        serviceName: `helpdesk-queue-${spec.consumer}`,
        grants: consumerGrants(spec.consumer),
        memorySize: CONSUMER_MEMORY_MB[spec.consumer] ?? DEFAULT_MEMORY_MB,
        timeout: consumerTimeout(spec.visibilityTimeout),
      });
      consumer.fn.addEventSource(
        new SqsEventSource(this.queues[name], {
          batchSize: spec.batchSize,
          reportBatchItemFailures: true,
        }),
      );
      this.consumers[name] = consumer;
    }
  }
}

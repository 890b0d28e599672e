import { OUTBOX_PREFIX, REDRIVE_ATTRIBUTE } from '@helpdesk/core/kernel/ports/outbox';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RELAY_GRANTS } from '../grants.js';
import { DEFAULT_MEMORY_MB } from '../memory.js';
import { streamEntry } from '../paths.js';
import { HelpdeskFunction, type SharedResources } from './functions.js';

export interface OutboxRelayProps {
  shared: SharedResources;
  table: dynamodb.ITable;
  removalPolicy: RemovalPolicy;
  functionsRoot?: string;
}

/**
 * The outbox relay (decisions.md: a stream consumer Lambda, not EventBridge Pipes): the table's
 * stream, filtered to new `outbox#` items (and items marked for a redrive) before any invocation (filtered records are not
 * billed), feeds functions/stream/outbox-relay.ts. A failing batch is split and retried; a batch that
 * still fails after the retries is described (shard and sequence range, not the items) on the relay's
 * dead-letter queue, and its items stay in the table until their TTL, for `admin outbox:redrive`.
 */
export class OutboxRelay extends Construct {
  readonly fn: HelpdeskFunction;
  readonly deadLetterQueue: sqs.Queue;
  readonly eventSource: DynamoEventSource;

  constructor(scope: Construct, id: string, props: OutboxRelayProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'Dlq', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    this.fn = new HelpdeskFunction(this, 'Relay', {
      shared: props.shared,
      entry: streamEntry('outbox-relay', props.functionsRoot),
      description: 'Outbox relay: new outbox items from the table stream to their queues or schedules',
      serviceName: 'helpdesk-outbox-relay',
      grants: RELAY_GRANTS,
      memorySize: DEFAULT_MEMORY_MB,
      timeout: Duration.seconds(60),
    });
    this.eventSource = new DynamoEventSource(props.table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      // Relaying is on the path of every side effect: no batching window, so a reply mail leaves at once.
      maxBatchingWindow: Duration.seconds(0),
      bisectBatchOnError: true,
      retryAttempts: 10,
      reportBatchItemFailures: true,
      onFailure: new SqsDlq(this.deadLetterQueue),
      // New outbox items, and items an operator marked for a redrive (kernel/ports/outbox.ts, relayable).
      filters: [
        lambda.FilterCriteria.filter({
          eventName: lambda.FilterRule.isEqual('INSERT'),
          dynamodb: { Keys: { pk: { S: lambda.FilterRule.beginsWith(OUTBOX_PREFIX) } } },
        }),
        lambda.FilterCriteria.filter({
          eventName: lambda.FilterRule.isEqual('MODIFY'),
          dynamodb: {
            Keys: { pk: { S: lambda.FilterRule.beginsWith(OUTBOX_PREFIX) } },
            NewImage: { [REDRIVE_ATTRIBUTE]: { N: lambda.FilterRule.exists() } },
          },
        }),
      ],
    });
    this.fn.fn.addEventSource(this.eventSource);
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This is a dead-letter destination itself: the stream mapping's on-failure destination for batches the relay gave up on.",
    });
    Validations.of(this.fn.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams, which the stream event source mapping needs, has no resource-level permissions; reading records is granted on the table stream only.',
    });
  }
}

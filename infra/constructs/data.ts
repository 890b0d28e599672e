import { gsisOf, type ListIndexCounts, STREAM, TTL_ATTRIBUTE, tableKeys } from '@helpdesk/core/kernel/db/table';
import type { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface DataProps {
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  /** The list indexes the table has (fewer while an existing table gains them, one per deploy). */
  listIndexes: ListIndexCounts;
}

/** The one table, shaped by packages/core/src/kernel/db/table.ts (the same shape DynamoDB Local gets). */
export class Data extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const S = dynamodb.AttributeType.STRING;
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: tableKeys.partitionKey, type: S },
      sortKey: { name: tableKeys.sortKey, type: S },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Encrypted with the AWS-managed key (aws/dynamodb), so key use shows in CloudTrail.
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: props.deletionProtection,
      // The outbox relay reads new outbox items from the stream (infra/constructs/relay.ts).
      stream: dynamodb.StreamViewType[STREAM.StreamViewType],
      removalPolicy: props.removalPolicy,
    });
    for (const gsi of gsisOf(props.listIndexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.name,
        partitionKey: { name: gsi.partitionKey, type: S },
        sortKey: { name: gsi.sortKey, type: S },
        ...(gsi.projection.type === 'ALL'
          ? { projectionType: dynamodb.ProjectionType.ALL }
          : { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...gsi.projection.attributes] }),
      });
    }
  }
}

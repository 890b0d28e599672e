import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueName } from '@helpdesk/core/ports/queues';
import type { FunctionGrants } from '../grants.js';
import { entryExists } from '../paths.js';

/** The runtime every function deploys on (bundles target node22, which runs unchanged on it). */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** Everything a function may be granted, and the environment every function gets. */
export interface SharedResources {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  queues: Record<QueueName, sqs.IQueue>;
  configurationSetName: string;
  scheduleGroup: scheduler.IScheduleGroup;
  schedulerRole: iam.IRole;
  /** ARN of the Bedrock foundation model used for embeddings. */
  embeddingModelArn: string;
  /** Environment shared by every function (table, queues, bucket, stage, ...). */
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  removalPolicy: RemovalPolicy;
}

export interface HelpdeskFunctionProps {
  shared: SharedResources;
  /** Absolute path of the entry module (must export `handler`). */
  entry: string;
  description: string;
  /** POWERTOOLS_SERVICE_NAME, also used in the function's name-free log group id. */
  serviceName: string;
  grants: FunctionGrants;
  memorySize: number;
  timeout: Duration;
}

/**
 * One Lambda: bundled ESM with esbuild (AWS SDK v3 bundled and tree-shaken), arm64, its own log group
 * with retention, its own role holding only the grants in infra/grants.ts.
 */
export class HelpdeskFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: HelpdeskFunctionProps) {
    super(scope, id);
    const { shared, grants } = props;
    if (!entryExists(props.entry)) throw new Error(`Lambda entry ${props.entry} does not exist`);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: shared.logRetention,
      removalPolicy: shared.removalPolicy,
    });

    // An explicit role instead of AWSLambdaBasicExecutionRole: logs go to this function's group only.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.serviceName} Lambda`,
    });
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );

    this.fn = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: {
        ...shared.environment,
        POWERTOOLS_SERVICE_NAME: props.serviceName,
      },
      bundling: {
        minify: true,
        format: OutputFormat.ESM,
        target: 'node22',
        sourceMap: false,
        forceDockerBundling: false,
        mainFields: ['module', 'main'],
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        externalModules: [],
      },
    });

    shared.table.grantReadWriteData(this.fn);
    for (const queue of grants.send) shared.queues[queue].grantSendMessages(this.fn);
    if (grants.bucket) shared.bucket.grantReadWrite(this.fn);
    const stack = Stack.of(this);
    if (grants.ses) {
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [
            stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
            stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: shared.configurationSetName }),
          ],
        }),
      );
    }
    if (grants.bedrock) {
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [shared.embeddingModelArn] }),
      );
    }
    if (grants.scheduler) {
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
          resources: [
            stack.formatArn({
              service: 'scheduler',
              resource: 'schedule',
              resourceName: `${shared.scheduleGroup.scheduleGroupName}/*`,
            }),
          ],
        }),
      );
      shared.schedulerRole.grantPassRole(this.role);
    }
  }
}

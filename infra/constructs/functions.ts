import { rmSync } from 'node:fs';
import path from 'node:path';
import { tableKeys } from '@helpdesk/core/kernel/db/table';
import type { QueueName } from '@helpdesk/core/top/queues/registry';
import { CfnResource, type Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { FunctionGrants } from '../grants.js';
import { entryExists } from '../paths.js';
import { buildFolder, buildFunction } from './bundle.js';

/** The runtime every function deploys on (bundles target node22, which runs unchanged on it). */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** Item reads and writes (TransactWriteItems is authorized per item by these actions); no table admin. */
const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:DescribeTable',
];

/** The logical id cdk-nag prints for a construct's resource, e.g. `FilesAttachments124F06A4`. */
const logicalIdOf = (construct: Construct) => {
  const resource = construct.node.defaultChild;
  if (!CfnResource.isCfnResource(resource)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return Stack.of(construct).getLogicalId(resource);
};

/** Everything a function may be granted, and the environment every function gets. */
export interface SharedResources {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  queues: Record<QueueName, sqs.IQueue>;
  /** The stage's SES configuration sets, one per tracking combination (a send names one). */
  configurationSetNames: string[];
  scheduleGroup: scheduler.IScheduleGroup;
  schedulerRole: iam.IRole;
  /** The stage's signing secret: every function reads it at cold start. */
  signingSecret: secretsmanager.ISecret;
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
  /** SERVICE_NAME, also used in the function's name-free log group id. */
  serviceName: string;
  grants: FunctionGrants;
  /** Absolute paths of files copied beside the bundle. */
  assets?: string[];
  /** MB; infra/memory.ts says how each was chosen. */
  memorySize: number;
  timeout: Duration;
}

/**
 * One Lambda: ESM built with esbuild into index.mjs and lazily loaded chunks (infra/constructs/bundle.ts;
 * AWS SDK v3 bundled and tree-shaken), arm64, its own log group with retention, its own role holding
 * only the grants in infra/grants.ts.
 */
export class HelpdeskFunction extends Construct {
  readonly fn: lambda.Function;
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

    const built = this.build(props.entry, props.assets);
    this.fn = new lambda.Function(this, 'Function', {
      code: lambda.Code.fromAsset(built),
      handler: 'index.handler', // index.mjs (BUNDLE_ENTRY_FILE)
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
        SERVICE_NAME: props.serviceName,
      },
    });

    // Staging copied the build into the cloud assembly; without staging (SAM) the asset is the folder itself.
    if (built !== path.dirname(props.entry) && !this.node.tryGetContext('aws:cdk:disable-asset-staging')) {
      rmSync(built, { recursive: true, force: true });
    }

    const stack = Stack.of(this);
    const allow = (actions: string[], resources: string[]) =>
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources }));

    // The table and each of its indexes by name: no `index/*` wildcard.
    allow(TABLE_ACTIONS, [
      shared.table.tableArn,
      ...tableKeys.gsis.map((g) => `${shared.table.tableArn}/index/${g.name}`),
    ]);

    for (const queue of grants.send) shared.queues[queue].grantSendMessages(this.role);
    shared.signingSecret.grantRead(this.role);

    if (grants.bucket) {
      allow(['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], [shared.bucket.arnForObjects('*')]);
      // ListBucket turns a GetObject of a missing key into NoSuchKey instead of AccessDenied (blob-store relies on it).
      allow(['s3:ListBucket'], [shared.bucket.bucketArn]);
      this.acknowledge(
        `Resource::<${logicalIdOf(shared.bucket)}.Arn>/*`,
        'Attachment object keys are created at runtime (per project, ticket and file); access is limited to object get/put/delete in the attachments bucket only.',
      );
    }
    if (grants.ses) {
      allow(
        ['ses:SendEmail', 'ses:SendRawEmail'],
        [
          stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
          ...shared.configurationSetNames.map((resourceName) =>
            stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName }),
          ),
        ],
      );
      this.acknowledge(
        'Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*',
        "Sender identities (customer domains and addresses) are verified in SES at runtime and are not known at deploy time; sending is still bound to this stage's configuration set.",
      );
    }
    if (grants.bedrock) allow(['bedrock:InvokeModel'], [shared.embeddingModelArn]);
    if (grants.scheduler) {
      const create = grants.scheduler === 'create';
      allow(
        [create ? 'scheduler:CreateSchedule' : 'scheduler:DeleteSchedule'],
        [
          stack.formatArn({
            service: 'scheduler',
            resource: 'schedule',
            resourceName: `${shared.scheduleGroup.scheduleGroupName}/*`,
          }),
        ],
      );
      if (create) shared.schedulerRole.grantPassRole(this.role);
      this.acknowledge(
        `Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${shared.scheduleGroup.scheduleGroupName}/*`,
        "One-time schedules are named per outbox item (hd-<id>) at runtime; the wildcard is confined to this stage's schedule group.",
      );
    }
  }

  /**
   * The function's folder, built at synth time (offline; the asset staging copies it into the cloud
   * assembly). Stacks CDK was told not to bundle (`cdk list`, `aws:cdk:bundling-stacks`) get the entry's
   * own folder, as NodejsFunction does, without running esbuild.
   */
  private build(entry: string, assets: string[] = []) {
    if (!Stack.of(this).bundlingRequired) return path.dirname(entry);
    const outdir = buildFolder(this.node.path);
    buildFunction(entry, outdir, assets);
    return outdir;
  }

  /** Acknowledges one AwsSolutions-IAM5 finding on this function's role policy. */
  private acknowledge(finding: string, reason: string) {
    Validations.of(this.role).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
  }
}

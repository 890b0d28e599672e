import type { RouteDef } from '@helpdesk/core/kernel/api/route';
import { QUEUE_NAMES } from '@helpdesk/core/top/queues/registry';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StackSettings } from './config.js';
import { Api } from './constructs/api.js';
import { Async } from './constructs/async.js';
import { Data } from './constructs/data.js';
import { Edge } from './constructs/edge.js';
import { Files } from './constructs/files.js';
import type { HelpdeskFunction, SharedResources } from './constructs/functions.js';
import { Inbound } from './constructs/inbound.js';
import { Mail } from './constructs/mail.js';
import { Observability } from './constructs/observability.js';
import { OutboxRelay } from './constructs/relay.js';
import { Schedules } from './constructs/schedules.js';
import { SCHEDULE_TARGETS } from './grants.js';

export interface HelpdeskStackProps extends StackProps {
  settings: StackSettings;
  /** The route table; the app always uses core's `allRoutes` (tests may pass a larger one). */
  routes?: readonly RouteDef[];
  /** Folder holding http/<group>.ts and queue/<consumer>.ts; default: the repository's functions/. */
  functionsRoot?: string;
}

/** Retention values CloudWatch Logs accepts; the context value is rounded up to the next one. */
const RETENTIONS = Object.values(logs.RetentionDays)
  .filter((v): v is number => typeof v === 'number' && v > 0)
  .sort((a, b) => a - b);
const retentionOf = (days: number) =>
  (RETENTIONS.find((r) => r >= days) ?? logs.RetentionDays.TEN_YEARS) as logs.RetentionDays;

/**
 * The whole service for one stage: table, attachments bucket, queues and consumers, the outbox relay,
 * HTTP API and group Lambdas, SES configuration set, scheduler group, alarms.
 */
export class HelpdeskStack extends Stack {
  readonly data: Data;
  readonly files: Files;
  readonly async: Async;
  readonly schedules: Schedules;
  readonly mail: Mail;
  /** SES receiving, when the stage has an inbound domain. */
  readonly inbound?: Inbound;
  readonly api: Api;
  /** CloudFront in front of the help centers. */
  readonly edge: Edge;
  readonly observability: Observability;
  readonly relay: OutboxRelay;
  readonly signingSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: HelpdeskStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const { stage } = settings;
    const prod = stage === 'prod';
    const removalPolicy = prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logRetention = retentionOf(prod ? Math.max(settings.logRetentionDays, 90) : settings.logRetentionDays);

    this.data = new Data(this, 'Data', {
      removalPolicy,
      deletionProtection: prod,
      listIndexes: { ticket: settings.ticketListIndexes, email: settings.emailListIndexes },
    });
    this.files = new Files(this, 'Files', { accessLogRetentionDays: prod ? 365 : 30 });
    this.async = new Async(this, 'Async', { removalPolicy });
    this.schedules = new Schedules(this, 'Schedules', {
      stage,
      targetQueues: SCHEDULE_TARGETS.map((q) => this.async.queues[q]),
      removalPolicy,
    });
    this.mail = new Mail(this, 'Mail', { stage, sesEventsQueue: this.async.queues.sesEvents });
    if (settings.inboundDomain) {
      this.inbound = new Inbound(this, 'Inbound', {
        stage,
        domain: settings.inboundDomain,
        bucket: this.files.bucket,
        queue: this.async.queues.inbound,
        removalPolicy,
      });
    }
    this.api = new Api(this, 'Api', {
      stage,
      throttle: { rateLimit: settings.apiThrottleRateLimit, burstLimit: settings.apiThrottleBurstLimit },
      logRetention,
      removalPolicy,
    });

    this.edge = new Edge(this, 'Edge', {
      stage,
      httpApi: this.api.httpApi,
      removalPolicy,
      ...(settings.portalDomain ? { domain: settings.portalDomain } : {}),
    });

    // The stage's signing secret (links, reply addresses, sealed webhook secrets): JSON
    // `{ current, previous: [{ secret, until }] }` (kernel/secrets.ts), read by each function at cold
    // start through its ARN; never in a function's environment. Rotated with `admin secret:rotate`,
    // which keeps the previous secret valid for an overlap and seals stored secrets again.
    this.signingSecret = new secretsmanager.Secret(this, 'SigningSecret', {
      secretName: `helpdesk/${stage}/signing-secret`,
      description: `helpdesk-${stage} signing secret (signed links, reply addresses, sealed webhook secrets)`,
      generateSecretString: {
        secretStringTemplate: '{}',
        generateStringKey: 'current',
        passwordLength: 48,
        excludePunctuation: true,
      },
      removalPolicy,
    });
    Validations.of(this.signingSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotation keeps the previous secret valid for weeks (mails already sent carry links and reply addresses signed with it) and re-seals stored webhook secrets: it is the admin CLI command secret:rotate (README, Operations), not a rotation Lambda.',
    });

    const queueEnv: Record<string, string> = {};
    for (const name of QUEUE_NAMES) {
      queueEnv[`QUEUE_URL_${name.toUpperCase()}`] = this.async.queues[name].queueUrl;
      queueEnv[`QUEUE_ARN_${name.toUpperCase()}`] = this.async.queues[name].queueArn;
    }
    const environment: Record<string, string> = {
      STAGE: stage,
      TABLE_NAME: this.data.table.tableName,
      ...queueEnv,
      ATTACHMENTS_BUCKET: this.files.bucket.bucketName,
      PUBLIC_BASE_URL: settings.publicBaseUrl ?? this.api.url,
      PORTAL_BASE_URL: this.edge.url,
      DEFAULT_SENDER: settings.defaultSender,
      SES_CONFIGURATION_SET: this.mail.configurationSet.configurationSetName,
      SCHEDULER_MODE: 'eventbridge',
      SCHEDULER_GROUP: this.schedules.group.scheduleGroupName,
      SCHEDULER_ROLE_ARN: this.schedules.role.roleArn,
      SIGNING_SECRET_ARN: this.signingSecret.secretArn,
      EMBEDDER: 'bedrock',
      EMBEDDING_MODEL_ID: settings.embeddingModelId,
      ...(settings.inboundDomain ? { INBOUND_DOMAIN: settings.inboundDomain } : {}),
      TICKET_LISTS: settings.ticketLists,
      EMAIL_LISTS: settings.emailLists,
      // ALLOW_PRIVATE_WEBHOOK_TARGETS is deliberately absent: deployed stages never deliver to private networks.
    };
    if ('ALLOW_PRIVATE_WEBHOOK_TARGETS' in environment)
      throw new Error('ALLOW_PRIVATE_WEBHOOK_TARGETS must not be set in a deployed stage');

    const shared: SharedResources = {
      table: this.data.table,
      bucket: this.files.bucket,
      queues: this.async.queues,
      configurationSetNames: this.mail.configurationSetNames,
      scheduleGroup: this.schedules.group,
      schedulerRole: this.schedules.role,
      signingSecret: this.signingSecret,
      embeddingModelArn: this.formatArn({
        service: 'bedrock',
        account: '',
        resource: 'foundation-model',
        resourceName: settings.embeddingModelId,
      }),
      environment,
      logRetention,
      removalPolicy,
    };

    this.api.addRoutes(props.routes ?? allRoutes, shared, props.functionsRoot);
    // Only the help centers read the edge secret: they trust the viewer's address with it.
    const portal = this.api.functions.portal;
    if (portal) {
      this.edge.secret.grantRead(portal.fn);
      portal.fn.addEnvironment('EDGE_SECRET_ARN', this.edge.secret.secretArn);
    }
    this.async.addConsumers(shared, props.functionsRoot);
    this.relay = new OutboxRelay(this, 'Outbox', {
      shared,
      table: this.data.table,
      removalPolicy,
      functionsRoot: props.functionsRoot,
    });

    const functions: Record<string, HelpdeskFunction> = {};
    for (const [group, fn] of Object.entries(this.api.functions)) functions[`http-${group}`] = fn;
    for (const [queue, fn] of Object.entries(this.async.consumers)) functions[`queue-${queue}`] = fn;
    functions['outbox-relay'] = this.relay.fn;
    this.observability = new Observability(this, 'Observability', {
      stage,
      httpApi: this.api.httpApi,
      queues: this.async.queues,
      deadLetterQueues: { ...this.async.deadLetterQueues, outboxRelay: this.relay.deadLetterQueue },
      relay: this.relay.fn,
      functions,
      alarmTopicArn: settings.alarmTopicArn,
    });

    new CfnOutput(this, 'ApiUrl', { value: `${this.api.url}/api/v1` });
    new CfnOutput(this, 'HelpCenterUrl', { value: `${this.edge.url}/help` });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'AttachmentsBucket', { value: this.files.bucket.bucketName });
    new CfnOutput(this, 'ConfigurationSet', { value: this.mail.configurationSet.configurationSetName });
    if (this.inbound) new CfnOutput(this, 'InboundRuleSet', { value: this.inbound.ruleSet.receiptRuleSetName });
  }
}

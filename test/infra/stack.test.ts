import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fullPath, GROUPS, type Group, type RouteDef, routeKey } from '@helpdesk/core/kernel/api/route';
import {
  gsisOf,
  NARROW_LISTS,
  type NarrowList,
  projectionOf,
  TTL_ATTRIBUTE,
  tableKeys,
} from '@helpdesk/core/kernel/db/table';
import { createGatewaySelector, gatewayRoutes } from '@helpdesk/core/top/pipeline/match';
import { QUEUE_NAMES, QUEUES } from '@helpdesk/core/top/queues/registry';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../infra/config.js';
import { DEFAULT_ROUTE_GROUP } from '../../infra/constructs/api.js';
import type { HelpdeskFunction } from '../../infra/constructs/functions.js';
import { CONSUMER_GRANTS, HTTP_GRANTS, RELAY_GRANTS, SCHEDULE_TARGETS } from '../../infra/grants.js';
import { entryExists, queueEntry, REPO_ROOT } from '../../infra/paths.js';
import { HelpdeskStack } from '../../infra/stack.js';

/** Bundling every Lambda with esbuild: ~25 s of CPU, over 2 minutes on a loaded 2-core machine. */
const SYNTH_TIMEOUT = 300_000;

type Resources = Record<string, { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string }>;

/** The same context the CLI gives the app (cdk.json), so feature flags match `cdk synth`. */
function newApp(stage: string, bundle: boolean, context: Record<string, string> = {}) {
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  // `aws:cdk:bundling-stacks: []` is CDK's own switch (used by `cdk list`) to skip asset bundling.
  // Stages other than dev must name a sender (infra/config.ts).
  const sender = stage === 'dev' ? {} : { defaultSender: 'Helpdesk <support@example.com>' };
  return new App({
    context: { ...cdkJson.context, stage, ...sender, ...context, ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
}

function synth(
  stage: string,
  extra: { routes?: RouteDef[]; functionsRoot?: string; bundle?: boolean; context?: Record<string, string> } = {},
) {
  const { bundle = true, context, ...stackProps } = extra;
  const app = newApp(stage, bundle, context);
  const stack = new HelpdeskStack(app, `Helpdesk-${stage}`, { settings: readSettings(app.node), ...stackProps });
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources as Resources };
}

const logicalId = (fn: HelpdeskFunction, which: 'fn' | 'role') => {
  const stack = fn.fn.stack;
  const child = (which === 'fn' ? fn.fn : fn.role).node.defaultChild;
  return stack.getLogicalId(child as never);
};

/** Every IAM statement attached to a role (by logical id), across all its policies. */
function statementsOf(resources: Resources, role: string): { Action: string | string[]; Resource: unknown }[] {
  return Object.values(resources)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' &&
        ((r.Properties?.Roles ?? []) as { Ref?: string }[]).some((x) => x.Ref === role),
    )
    .flatMap((r) => r.Properties?.PolicyDocument?.Statement ?? []);
}

/** Every IAM action granted to a function's role. */
const actionsOf = (resources: Resources, fn: HelpdeskFunction) =>
  new Set(statementsOf(resources, logicalId(fn, 'role')).flatMap((st) => [st.Action].flat()));

/** The function (logical id) an API Gateway route's integration invokes. */
function routeTarget(resources: Resources, key: string): string | undefined {
  const route = Object.values(resources).find(
    (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties?.RouteKey === key,
  );
  if (!route) return undefined;
  const join = route.Properties?.Target?.['Fn::Join']?.[1] as unknown[];
  const integrationId = (join?.find((p) => typeof p === 'object') as { Ref: string }).Ref;
  const uri = resources[integrationId]?.Properties?.IntegrationUri;
  return uri?.['Fn::GetAtt']?.[0];
}

/** cdk-nag 3: any finding not acknowledged in the stack code (Validations.of(x).acknowledge) fails. */
function nagFindings(stack: HelpdeskStack) {
  const report = new AwsSolutionsChecks().validateScope(stack);
  return report.violations.map(
    (v) => `${v.ruleName}: ${v.description} @ ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
  );
}

const expectedGroups = () => [...new Set<Group>([...allRoutes.map((r) => r.group), DEFAULT_ROUTE_GROUP])];
const existingConsumers = () => QUEUE_NAMES.filter((q) => entryExists(queueEntry(QUEUES[q].consumer)));

describe('Helpdesk stack (dev, the real route table and functions/)', () => {
  let stack: HelpdeskStack;
  let template: Template;
  let resources: Resources;

  beforeAll(() => {
    ({ stack, template, resources } = synth('dev'));
  }, SYNTH_TIMEOUT);

  it('has one Lambda per endpoint group with routes and one per existing queue consumer', () => {
    const groups = expectedGroups();
    const consumers = existingConsumers();
    expect(Object.keys(stack.api.functions).sort()).toEqual([...groups].sort());
    expect(Object.keys(stack.async.consumers).sort()).toEqual([...consumers].sort());
    // ...and the outbox relay.
    template.resourceCountIs('AWS::Lambda::Function', groups.length + consumers.length + 1);
  });

  it("stays well inside CloudFormation's 500 resources: one API invoke permission per group Lambda, not per route", () => {
    const groups = expectedGroups();
    const apiPermissions = Object.values(resources).filter(
      (r) =>
        (r as { Type: string }).Type === 'AWS::Lambda::Permission' &&
        (r as { Properties: { Principal?: string } }).Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(apiPermissions).toHaveLength(groups.length);
    expect(Object.keys(resources).length).toBeLessThan(450);
  });

  it('creates one route per path (ANY) of allRoutes, pointed at its group Lambda, plus $default on the account Lambda', () => {
    const gateway = gatewayRoutes(allRoutes);
    template.resourceCountIs('AWS::ApiGatewayV2::Route', gateway.length + 1);
    for (const route of gateway) {
      const fn = stack.api.functions[route.group]!;
      expect(routeTarget(resources, route.key), route.key).toBe(logicalId(fn, 'fn'));
    }
    // Every operation is served by its own group's Lambda, whichever route API Gateway selects for it.
    const select = createGatewaySelector(gateway);
    for (const route of allRoutes) {
      const sample = fullPath(route).replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      expect(select(route.method, sample)?.route.group, routeKey(route)).toBe(route.group);
    }
    expect(gateway.map((r) => r.key)).toEqual(
      expect.arrayContaining(['ANY /api/v1/tickets', 'ANY /help/{handle}', 'POST /api/v1/emails/preview']),
    );
    expect(routeTarget(resources, '$default')).toBe(logicalId(stack.api.functions[DEFAULT_ROUTE_GROUP]!, 'fn'));
  });

  it('ships the Redoc bundle beside the docs Lambda, which serves the reference page without a CDN', () => {
    const code = resources[logicalId(stack.api.functions.docs!, 'fn')]?.Properties?.Code as { S3Key: string };
    const assetDir = path.join((stack.node.root as App).outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
    expect(readFileSync(path.join(assetDir, 'redoc.standalone.js'), 'utf8').length).toBeGreaterThan(100_000);
    expect(readFileSync(path.join(assetDir, 'index.mjs'), 'utf8')).toContain('redoc.standalone.js');
  });

  it('bundles every Lambda with the env-only credential provider: no SSO, INI, process or web-identity providers', () => {
    const functions = [...Object.values(stack.api.functions), ...Object.values(stack.async.consumers)].filter(
      (f): f is HelpdeskFunction => f !== undefined,
    );
    for (const fn of functions) {
      const { Code: code, Handler: handler } = resources[logicalId(fn, 'fn')]!.Properties as {
        Code: { S3Key: string };
        Handler: string;
      };
      expect(handler, fn.node.path).toBe('index.handler');
      // index.mjs, the chunks it loads, at once or on first use, and the SDK clients built on their own
      // (node_modules/): everything that ships.
      const dir = path.join((stack.node.root as App).outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
      expect(files, fn.node.path).toContain('index.mjs');
      const bundle = files.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');
      // Each provider names itself in its debug messages, which survive minification.
      const providers = new Set(bundle.match(/@aws-sdk\/credential-provider-[a-z-]+/g));
      expect(providers.has('@aws-sdk/credential-provider-env'), fn.node.path).toBe(true);
      for (const dropped of ['sso', 'ini', 'process', 'web-identity', 'http']) {
        expect(
          providers.has(`@aws-sdk/credential-provider-${dropped}`),
          `${fn.node.path} bundles credential-provider-${dropped}`,
        ).toBe(false);
      }
    }
  });

  it('ships the S3 client built on its own in node_modules/, none of its code in the files the tickets Lambda loads itself', () => {
    const code = resources[logicalId(stack.api.functions.tickets!, 'fn')]?.Properties?.Code as { S3Key: string };
    const dir = path.join((stack.node.root as App).outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
    const s3 = path.join(dir, 'node_modules', '@aws-sdk', 'client-s3');
    expect(JSON.parse(readFileSync(path.join(s3, 'package.json'), 'utf8'))).toMatchObject({
      type: 'module',
      main: 'index.mjs',
    });
    // The service's schema namespace names every S3 operation's shapes.
    expect(readFileSync(path.join(s3, 'index.mjs'), 'utf8')).toContain('com.amazonaws.s3');
    const own = readdirSync(dir).filter((f) => f.endsWith('.mjs'));
    expect(own).toContain('index.mjs');
    for (const file of own) expect(readFileSync(path.join(dir, file), 'utf8'), file).not.toContain('com.amazonaws.s3');
  });

  it('serves the API on an auto-deployed $default stage with throttling and access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });

  it('builds the table from core: on-demand, PITR, TTL, SSE, four shared GSIs and four narrow ticket list GSIs', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      SSESpecification: { SSEEnabled: true },
      GlobalSecondaryIndexes: tableKeys.gsis.map((g) => ({
        IndexName: g.name,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: projectionOf(g),
      })),
    });
    expect(tableKeys.gsis.map((g) => [g.name, g.projection.type])).toEqual([
      ['gsi1', 'ALL'],
      ['gsi2', 'ALL'],
      ['gsi3', 'ALL'],
      ['gsi4', 'ALL'],
      ['gsi5', 'INCLUDE'],
      ['gsi6', 'INCLUDE'],
      ['gsi7', 'INCLUDE'],
      ['gsi8', 'INCLUDE'],
      ['gsi9', 'INCLUDE'],
      ['gsi10', 'INCLUDE'],
      ['gsi11', 'INCLUDE'],
      ['gsi12', 'INCLUDE'],
    ]);
    // DynamoDB allows 100 projected attributes over all of a table's indexes.
    expect(
      tableKeys.gsis.reduce((n, g) => n + (g.projection.type === 'INCLUDE' ? g.projection.attributes.length : 0), 0),
    ).toBeLessThanOrEqual(100);
    // Functions are told which lists to read.
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      const variables = (fn as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties
        .Environment?.Variables;
      if (variables?.TABLE_NAME) expect([variables.TICKET_LISTS, variables.EMAIL_LISTS]).toEqual(['narrow', 'narrow']);
    }
  });

  it.each([
    ['ticket', 'TICKET_LISTS', ['gsi5', 'gsi6']],
    ['email', 'EMAIL_LISTS', ['gsi9', 'gsi10']],
  ])('adds the %s list indexes one per update while migrating, and tells the functions', (entity, setting, added) => {
    const { template: migrating } = synth('dev', {
      bundle: false,
      context: { [`${entity}Lists`]: 'migrating', [`${entity}ListIndexes`]: '2' },
    });
    const [table] = Object.values(migrating.findResources('AWS::DynamoDB::Table')) as {
      Properties: { GlobalSecondaryIndexes: { IndexName: string }[] };
    }[];
    const others = gsisOf().filter((g) => !NARROW_LISTS[entity as NarrowList].some((list) => list.name === g.name));
    expect(table?.Properties.GlobalSecondaryIndexes.map((g) => g.IndexName).sort()).toEqual(
      [...others.map((g) => g.name), ...added].sort(),
    );
    const variables = Object.values(migrating.findResources('AWS::Lambda::Function')).flatMap(
      (fn): Record<string, unknown>[] => {
        const env = (fn as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties
          .Environment;
        return env?.Variables ? [env.Variables] : [];
      },
    );
    expect(variables.length).toBeGreaterThan(10);
    expect(variables.filter((v) => v.TABLE_NAME).every((v) => v[setting] === 'migrating')).toBe(true);
  });

  it('gives every queue of QUEUES a dead-letter queue, SSE and TLS-only access', () => {
    const queues = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SQS::Queue');
    // A queue and a dead-letter queue per entry, and the outbox relay's dead-letter queue.
    expect(queues).toHaveLength(QUEUE_NAMES.length * 2 + 1);
    for (const [, q] of queues) expect(q.Properties?.SqsManagedSseEnabled).toBe(true);
    for (const name of QUEUE_NAMES) {
      const queue = stack.getLogicalId(stack.async.queues[name].node.defaultChild as never);
      const dlq = stack.getLogicalId(stack.async.deadLetterQueues[name].node.defaultChild as never);
      expect(resources[queue]?.Properties?.RedrivePolicy, name).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
        maxReceiveCount: QUEUES[name].maxReceiveCount,
      });
      expect(resources[queue]?.Properties?.VisibilityTimeout).toBe(QUEUES[name].visibilityTimeout);
    }
    const policies = Object.values(resources).filter((r) => r.Type === 'AWS::SQS::QueuePolicy');
    for (const p of policies) {
      expect(JSON.stringify(p.Properties?.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it("alarms on every dead-letter queue (the relay's too), every queue's oldest message, the relay's lag and API 5xx", () => {
    const idOf = (construct: { node: { defaultChild?: unknown } }) =>
      stack.getLogicalId(construct.node.defaultChild as never);
    for (const dlq of [...Object.values(stack.async.deadLetterQueues), stack.relay.deadLetterQueue]) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(dlq), 'QueueName'] } }],
        Threshold: 1,
      });
    }
    for (const name of QUEUE_NAMES) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateAgeOfOldestMessage',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(stack.async.queues[name]), 'QueueName'] } }],
      });
    }
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'IteratorAge',
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: idOf(stack.relay.fn.fn) } }],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: '5xx', Namespace: 'AWS/ApiGateway' });
  });

  it('feeds each existing consumer from its queue with the batch size from QUEUES and partial-batch failures', () => {
    for (const name of existingConsumers()) {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: {
          'Fn::GetAtt': [stack.getLogicalId(stack.async.queues[name].node.defaultChild as never), 'Arn'],
        },
        BatchSize: QUEUES[name].batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    // ...and the relay's stream mapping.
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', existingConsumers().length + 1);
  });

  it('relays new outbox items from the table stream: filtered, split and retried, failures described on a DLQ', () => {
    const table = stack.getLogicalId(stack.data.table.node.defaultChild as never);
    expect(resources[table]?.Properties?.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [table, 'StreamArn'] },
      FunctionName: { Ref: stack.getLogicalId(stack.relay.fn.fn.node.defaultChild as never) },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: {
        OnFailure: {
          Destination: {
            'Fn::GetAtt': [stack.getLogicalId(stack.relay.deadLetterQueue.node.defaultChild as never), 'Arn'],
          },
        },
      },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { Keys: { pk: { S: [{ prefix: 'outbox#' }] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['MODIFY'],
              dynamodb: {
                Keys: { pk: { S: [{ prefix: 'outbox#' }] } },
                NewImage: { redrive: { N: [{ exists: true }] } },
              },
            }),
          },
        ],
      },
    });
  });

  it('keeps the buckets private, encrypted and TLS only', () => {
    const buckets = Object.values(resources).filter((r) => r.Type === 'AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThanOrEqual(1);
    for (const b of buckets) {
      expect(b.Properties?.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(b.Properties?.BucketEncryption).toBeDefined();
    }
    template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'attachments/' }),
    });
  });

  it('deletes uploads nobody attached after one day (the attachments bucket lifecycle on uploads/)', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'attachments/' }),
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ Prefix: 'uploads/', ExpirationInDays: 1, Status: 'Enabled' })]),
      },
    });
  });

  it('runs every Lambda on nodejs22.x or newer, arm64, with the deployed-stage environment', () => {
    const fns = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function');
    expect(fns.length).toBeGreaterThan(0);
    for (const fn of fns) {
      const runtime = String(fn.Properties?.Runtime);
      expect(runtime).toMatch(/^nodejs\d+\.x$/);
      expect(Number(runtime.match(/\d+/)![0])).toBeGreaterThanOrEqual(22);
      expect(fn.Properties?.Architectures).toEqual(['arm64']);
      const env = fn.Properties?.Environment?.Variables as Record<string, unknown>;
      expect(env).not.toHaveProperty('ALLOW_PRIVATE_WEBHOOK_TARGETS');
      expect(env).toMatchObject({ STAGE: 'dev', SCHEDULER_MODE: 'eventbridge', EMBEDDER: 'bedrock' });
      for (const key of [
        'TABLE_NAME',
        'ATTACHMENTS_BUCKET',
        'PUBLIC_BASE_URL',
        'DEFAULT_SENDER',
        'SES_CONFIGURATION_SET',
        'SCHEDULER_GROUP',
        'SCHEDULER_ROLE_ARN',
        'SIGNING_SECRET_ARN',
        'SERVICE_NAME',
      ]) {
        expect(env, key).toHaveProperty(key);
      }
      // The secret's value is read at run time through its ARN, never resolved into the environment.
      expect(env).not.toHaveProperty('SIGNING_SECRET');
      expect(JSON.stringify(env)).not.toContain('{{resolve:');
      for (const q of QUEUE_NAMES) {
        expect(env).toHaveProperty(`QUEUE_URL_${q.toUpperCase()}`);
        expect(env).toHaveProperty(`QUEUE_ARN_${q.toUpperCase()}`);
      }
    }
    // PUBLIC_BASE_URL defaults to the API's own endpoint.
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          PUBLIC_BASE_URL: { 'Fn::GetAtt': [Match.stringLikeRegexp('HttpApi'), 'ApiEndpoint'] },
        }),
      },
    });
  });

  it('serves the help centers through CloudFront: /help/* revalidated by ETag, viewer address trusted with the edge secret', () => {
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    const [distribution] = Object.values(resources).filter((r) => r.Type === 'AWS::CloudFront::Distribution');
    const config = distribution!.Properties!.DistributionConfig as {
      CacheBehaviors: { PathPattern: string; AllowedMethods: string[]; CachePolicyId: unknown; Compress: boolean }[];
      DefaultCacheBehavior: { CachePolicyId: string; ViewerProtocolPolicy: string };
      Origins: {
        CustomOriginConfig: { OriginProtocolPolicy: string };
        OriginCustomHeaders: { HeaderName: string; HeaderValue: unknown }[];
      }[];
    };
    const help = config.CacheBehaviors.find((b) => b.PathPattern === '/help/*');
    expect(help).toMatchObject({ Compress: true });
    expect(help!.AllowedMethods).toContain('POST');
    // The API itself is never cached (CloudFront's managed CachingDisabled policy).
    expect(config.DefaultCacheBehavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect(config.Origins[0]!.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    const edgeHeader = config.Origins[0]!.OriginCustomHeaders.find((h) => h.HeaderName === 'X-Helpdesk-Edge');
    expect(JSON.stringify(edgeHeader!.HeaderValue)).toContain('{{resolve:secretsmanager:');
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        DefaultTTL: 0,
        MinTTL: 0,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          QueryStringsConfig: { QueryStringBehavior: 'all' },
          EnableAcceptEncodingGzip: true,
        }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::OriginRequestPolicy', {
      OriginRequestPolicyConfig: Match.objectLike({
        HeadersConfig: {
          HeaderBehavior: 'whitelist',
          Headers: Match.arrayWith(['Content-Type', 'User-Agent', 'CloudFront-Viewer-Address']),
        },
      }),
    });
    // Only the portal reads the edge secret, by ARN; every function links help centers through the distribution.
    const withEdge = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Lambda::Function' &&
        (r.Properties?.Environment?.Variables as Record<string, unknown>)?.EDGE_SECRET_ARN !== undefined,
    );
    expect(withEdge.map((r) => r.Properties?.Description)).toEqual([expect.stringContaining('portal')]);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          PORTAL_BASE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.anyValue(), 'DomainName'] }]] },
        }),
      },
    });
  });

  it(
    'puts the help centers on a custom domain with its certificate when asked',
    () => {
      const { template: custom } = synth('dev', {
        bundle: false,
        context: {
          portalDomain: 'help.example.com',
          portalCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
        },
      });
      custom.hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({
          Aliases: ['help.example.com'],
          ViewerCertificate: Match.objectLike({
            AcmCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
            MinimumProtocolVersion: 'TLSv1.2_2021',
          }),
        }),
      });
      custom.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: Match.objectLike({ PORTAL_BASE_URL: 'https://help.example.com' }) },
      });
    },
    SYNTH_TIMEOUT,
  );

  it('has one SES configuration set per tracking choice, tracking opens and clicks only where asked', () => {
    const sets = Object.values(resources).filter((r) => r.Type === 'AWS::SES::ConfigurationSet');
    const names = sets.map((r) => (r.Properties as { Name: string }).Name).sort();
    const base = names[0] as string;
    expect(names).toEqual([base, `${base}-clicks`, `${base}-opens`, `${base}-opens-clicks`]);
    const tracked = Object.values(resources)
      .filter((r) => r.Type === 'AWS::SES::ConfigurationSetEventDestination')
      .map((r) => {
        const p = r.Properties as { ConfigurationSetName: unknown; EventDestination: { MatchingEventTypes: string[] } };
        const types = p.EventDestination.MatchingEventTypes;
        const lower = types.map((t) => t.toLowerCase());
        return [lower.includes('open'), lower.includes('click')];
      })
      .sort();
    expect(tracked).toEqual([
      [false, false],
      [false, true],
      [true, false],
      [true, true],
    ]);
    // Every set's events reach the queue, and every sender may send with every set.
    const rule = Object.values(resources).find(
      (r) => r.Type === 'AWS::Events::Rule' && JSON.stringify(r.Properties).includes('aws.ses'),
    );
    expect(JSON.stringify(rule?.Properties)).toContain(`${base}-opens-clicks`);
  });

  it('sends SES events to the sesEvents queue and lets the scheduler put sends on the emails queue', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({ Enabled: true, EventBridgeDestination: Match.anyValue() }),
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: Match.objectLike({ source: ['aws.ses'] }),
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [stack.getLogicalId(stack.async.queues.sesEvents.node.defaultChild as never), 'Arn'] },
          // The bare SES event, one of the two shapes the sesEvents message schema accepts.
          InputPath: '$.detail',
        }),
      ],
    });
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    // The scheduler's role may put messages on the queues core schedules onto, and nothing else.
    const schedulerRole = stack.getLogicalId(stack.schedules.role.node.defaultChild as never);
    const sendTargets = statementsOf(resources, schedulerRole)
      .filter((st) => [st.Action].flat().includes('sqs:SendMessage'))
      .flatMap((st) => [st.Resource].flat());
    expect(sendTargets).toEqual(
      SCHEDULE_TARGETS.map((q) => ({
        'Fn::GetAtt': [stack.getLogicalId(stack.async.queues[q].node.defaultChild as never), 'Arn'],
      })),
    );
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })],
      }),
    });
  });

  it('has no cdk-nag AwsSolutions finding that the stack does not acknowledge', () => {
    expect(nagFindings(stack)).toEqual([]);
  });

  it('receives no mail without an inbound domain: no receipt rule, no INBOUND_DOMAIN', () => {
    template.resourceCountIs('AWS::SES::ReceiptRuleSet', 0);
    expect(JSON.stringify(resources)).not.toContain('INBOUND_DOMAIN');
  });
});

describe('Helpdesk stack (prod, every endpoint group and consumer present)', () => {
  // Stub entry modules for every group and consumer, under the project root in a git-ignored folder,
  // so the grants of functions that do not exist yet are checked too. The stubs are not bundled: the
  // suite above already bundles the real modules.
  let root = '';
  let stack: HelpdeskStack;
  let template: Template;
  let resources: Resources;

  beforeAll(() => {
    const cache = path.join(REPO_ROOT, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    root = mkdtempSync(path.join(cache, 'helpdesk-infra-test-'));
    mkdirSync(path.join(root, 'http'));
    mkdirSync(path.join(root, 'queue'));
    mkdirSync(path.join(root, 'stream'));
    writeFileSync(
      path.join(root, 'stream', 'outbox-relay.ts'),
      'export const handler = async () => ({ batchItemFailures: [] });\n',
    );
    for (const g of GROUPS)
      writeFileSync(path.join(root, 'http', `${g}.ts`), 'export const handler = async () => ({ statusCode: 200 });\n');
    for (const q of Object.values(QUEUES)) {
      writeFileSync(
        path.join(root, 'queue', `${q.consumer}.ts`),
        'export const handler = async () => ({ batchItemFailures: [] });\n',
      );
    }
    const routes = GROUPS.map(
      (group) =>
        ({
          id: `probe_${group}`,
          method: 'GET',
          path: `/probe/${group}/{id}`,
          group,
          summary: 'probe',
          tenancy: 'public',
        }) as RouteDef,
    );
    ({ stack, template, resources } = synth('prod', {
      routes,
      functionsRoot: root,
      bundle: false,
      context: { inboundDomain: 'Mail.Example.com' },
    }));
  }, SYNTH_TIMEOUT);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('creates a Lambda per group and per consumer, and the outbox relay', () => {
    template.resourceCountIs('AWS::Lambda::Function', GROUPS.length + QUEUE_NAMES.length + 1);
    template.resourceCountIs('AWS::ApiGatewayV2::Route', GROUPS.length + 1);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', QUEUE_NAMES.length + 1);
  });

  it('grants each function only what infra/grants.ts lists', () => {
    const check = (fn: HelpdeskFunction, grants: (typeof HTTP_GRANTS)[Group], label: string) => {
      const actions = actionsOf(resources, fn);
      expect(actions.has('dynamodb:PutItem'), label).toBe(true);
      expect(actions.has('dynamodb:CreateTable'), label).toBe(false);
      expect(actions.has('sqs:SendMessage'), label).toBe(grants.send.length > 0);
      expect(actions.has('s3:PutObject'), label).toBe(!!grants.bucket);
      expect(actions.has('ses:SendEmail'), label).toBe(!!grants.ses);
      expect(actions.has('bedrock:InvokeModel'), label).toBe(!!grants.bedrock);
      expect(actions.has('scheduler:CreateSchedule'), label).toBe(grants.scheduler === 'create');
      expect(actions.has('iam:PassRole'), label).toBe(grants.scheduler === 'create');
      expect(actions.has('scheduler:DeleteSchedule'), label).toBe(grants.scheduler === 'delete');
      // Every function reads the stage's signing secret at cold start.
      expect(actions.has('secretsmanager:GetSecretValue'), label).toBe(true);
    };
    for (const group of GROUPS) check(stack.api.functions[group]!, HTTP_GRANTS[group], `http ${group}`);
    for (const name of QUEUE_NAMES) {
      const fn = stack.async.consumers[name]!;
      const actions = actionsOf(resources, fn);
      // Consuming comes from the event source mapping only.
      expect(actions.has('sqs:ReceiveMessage'), name).toBe(true);
      check(fn, CONSUMER_GRANTS[QUEUES[name].consumer]!, `queue ${name}`);
    }
    for (const group of GROUPS)
      expect(actionsOf(resources, stack.api.functions[group]!).has('sqs:ReceiveMessage')).toBe(false);
    // Only the relay puts messages on queues, and it may reach every one of them.
    check(stack.relay.fn, RELAY_GRANTS, 'outbox relay');
    expect(actionsOf(resources, stack.relay.fn).has('dynamodb:GetRecords'), 'outbox relay').toBe(true);
  });

  it('receives mail for the inbound domain: scanned, stored raw under inbound/, notified to the inbound queue through an encrypted topic', () => {
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'mail.example.com' });
    template.hasResourceProperties('AWS::SES::ReceiptRule', {
      Rule: Match.objectLike({
        Enabled: true,
        Recipients: ['mail.example.com'],
        ScanEnabled: true,
        Actions: [
          {
            S3Action: {
              BucketName: { Ref: stack.getLogicalId(stack.files.bucket.node.defaultChild as never) },
              ObjectKeyPrefix: 'inbound/',
              TopicArn: { Ref: stack.getLogicalId(stack.inbound!.topic.node.defaultChild as never) },
            },
          },
        ],
      }),
    });
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'sqs',
      RawMessageDelivery: true,
      Endpoint: { 'Fn::GetAtt': [stack.getLogicalId(stack.async.queues.inbound.node.defaultChild as never), 'Arn'] },
    });
    // SES may put objects under inbound/ only, for this account.
    const bucketPolicy = Object.values(resources).find(
      (r) => r.Type === 'AWS::S3::BucketPolicy' && JSON.stringify(r.Properties).includes('ses.amazonaws.com'),
    );
    expect(JSON.stringify(bucketPolicy?.Properties)).toMatch(/"s3:PutObject".*inbound\/\*/);
    // The consumer reads the bucket; every function is told the domain.
    expect(actionsOf(resources, stack.async.consumers.inbound!).has('s3:GetObject')).toBe(true);
    const fn = resources[logicalId(stack.async.consumers.inbound!, 'fn')]!;
    expect(fn.Properties?.Environment?.Variables?.INBOUND_DOMAIN).toBe('mail.example.com');
  });

  it('keeps the signing secret in Secrets Manager as JSON with a generated current secret, under a name the CLI finds', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: 'helpdesk/prod/signing-secret',
      GenerateSecretString: Match.objectLike({ SecretStringTemplate: '{}', GenerateStringKey: 'current' }),
    });
  });

  it('retains the table in prod with deletion protection', () => {
    const table = Object.values(resources).find((r) => r.Type === 'AWS::DynamoDB::Table')!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties?.DeletionProtectionEnabled).toBe(true);
  });

  it('has no cdk-nag AwsSolutions finding that the stack does not acknowledge', () => {
    expect(nagFindings(stack)).toEqual([]);
  });
});

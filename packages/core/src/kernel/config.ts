import * as v from 'valibot';
import './validation.js';

/**
 * Runtime configuration: the environment, parsed once with valibot on first use (at cold start, by
 * the handler factories) and then read from memory. First use rather than import, so the local stack,
 * the CLI and the tests can point the same code at their stand-ins in any import order.
 * `reloadConfig()` parses again (the local stack and tests that change a setting).
 */
export const STAGES = ['local', 'dev', 'sandbox', 'prod'] as const;
export type Stage = (typeof STAGES)[number];
type Service = 'dynamodb' | 'sqs' | 's3' | 'ses';
const SERVICES: Service[] = ['dynamodb', 'sqs', 's3', 'ses'];

/** Unset and empty are the same: CDK and shells write empty values for absent settings. */
const nonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1));
const text = v.optional(nonEmpty);
const flag = v.optional(v.picklist(['true', 'false']), 'false');
const seconds = (fallback: string) =>
  v.pipe(
    v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, 'a number of seconds')), fallback),
    v.transform(Number),
  );

const Settings = v.object({
  STAGE: v.optional(v.picklist(STAGES), 'local'),
  TABLE_NAME: text,
  SIGNING_SECRET: text,
  SIGNING_SECRET_ARN: text,
  ATTACHMENTS_BUCKET: v.optional(nonEmpty, 'helpdesk-attachments'),
  PUBLIC_BASE_URL: v.optional(nonEmpty, 'http://127.0.0.1:3000'),
  /** Where the help centers are served (the stack's CloudFront distribution); the public base URL when unset. */
  PORTAL_BASE_URL: text,
  /** The header value by which CloudFront proves a request came through it: given (tests) or by ARN (deployed). */
  EDGE_SECRET: text,
  EDGE_SECRET_ARN: text,
  DEFAULT_SENDER: v.optional(nonEmpty, 'no-reply@helpdesk.local'),
  /** The domain whose mail SES (or the local SMTP stand-in) receives: inbound and reply addresses. */
  INBOUND_DOMAIN: text,
  SES_CONFIGURATION_SET: text,
  /** Webhook targets on loopback/private networks are only allowed where explicitly enabled (local stack). */
  ALLOW_PRIVATE_WEBHOOK_TARGETS: flag,
  /** Unit of the webhook retry backoff (1, 5, 30, 120, 360, 720, 1440 units); tests shrink it. */
  WEBHOOK_RETRY_BASE_SECONDS: seconds('60'),
  SCHEDULER_MODE: v.optional(v.picklist(['eventbridge', 'table']), 'table'),
  SCHEDULER_GROUP: v.optional(nonEmpty, 'default'),
  SCHEDULER_ROLE_ARN: text,
  EMBEDDER: v.optional(v.picklist(['bedrock', 'local']), 'local'),
  /** How long an instance's searches trust its last read of a search index's current version; tests set 0. */
  SEARCH_STATE_MAX_AGE_SECONDS: seconds('1'),
  EMBEDDING_MODEL_ID: v.optional(nonEmpty, 'amazon.titan-embed-text-v2:0'),
  /**
   * `migrating` while a table made by an earlier release gains the ticket list indexes: tickets write their
   * entries in both the old and the new indexes, and lists read the old ones (docs/architecture.md, Upgrading).
   */
  TICKET_LISTS: v.optional(v.picklist(['narrow', 'migrating']), 'narrow'),
  /** The same step for the email list indexes (Email Logs rows). */
  EMAIL_LISTS: v.optional(v.picklist(['narrow', 'migrating']), 'narrow'),
});

/** What a deployed stage cannot run without (the stack sets each; the local stack has defaults). */
const REQUIRED_IN_DEPLOYED_STAGES = ['TABLE_NAME'] as const;

const missingMessage = (stage: Stage, names: string[]) =>
  `Stage ${stage} cannot start: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not set (the CDK stack sets ${names.length === 1 ? 'it' : 'them'}; see docs/architecture.md, Deployment).`;

function parse(source: NodeJS.ProcessEnv) {
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(Settings, given);
  if (!result.success) {
    // The setting's name and what it must be, never the value (it may be a secret).
    const problems = result.issues.map(
      (issue) => `${v.getDotPath(issue) ?? '?'} (expected ${issue.expected ?? 'a valid value'})`,
    );
    throw new Error(`Configuration is invalid: ${problems.join(', ')}`);
  }
  const s = result.output;
  const missing =
    s.STAGE === 'local'
      ? []
      : [
          ...REQUIRED_IN_DEPLOYED_STAGES.filter((name) => s[name] === undefined),
          ...(s.SIGNING_SECRET === undefined && s.SIGNING_SECRET_ARN === undefined ? ['SIGNING_SECRET_ARN'] : []),
        ];
  if (missing.length) throw new Error(missingMessage(s.STAGE, missing));
  const endpoints = Object.fromEntries(
    SERVICES.map((service) => [service, given[`${service.toUpperCase()}_ENDPOINT`]]),
  ) as Record<Service, string | undefined>;
  const queueUrls = new Map(
    Object.entries(given).flatMap(([name, url]) =>
      name.startsWith('QUEUE_URL_') && url ? [[name.slice('QUEUE_URL_'.length), url] as const] : [],
    ),
  );
  return {
    stage: s.STAGE,
    tableName: s.TABLE_NAME ?? 'helpdesk',
    /** The signing secret's value when given directly (local stack, tests); deployed stages give its ARN (kernel/secrets.ts). */
    signingSecret: s.SIGNING_SECRET,
    signingSecretArn: s.SIGNING_SECRET_ARN,
    attachmentsBucket: s.ATTACHMENTS_BUCKET,
    publicBaseUrl: s.PUBLIC_BASE_URL,
    portalBaseUrl: s.PORTAL_BASE_URL ?? s.PUBLIC_BASE_URL,
    edgeSecret: s.EDGE_SECRET,
    edgeSecretArn: s.EDGE_SECRET_ARN,
    defaultSender: s.DEFAULT_SENDER,
    /** Receiving mail is optional in a deployed stage (`-c inboundDomain=`); the local stack always receives. */
    inboundDomain: s.INBOUND_DOMAIN?.toLowerCase() ?? (s.STAGE === 'local' ? 'inbound.helpdesk.local' : undefined),
    /** The domain of Message-IDs the service makes up (a thread's root): the inbound domain, else the API's host. */
    get mailDomain(): string {
      return this.inboundDomain ?? new URL(this.publicBaseUrl).hostname;
    },
    sesConfigurationSet: s.SES_CONFIGURATION_SET,
    allowPrivateWebhookTargets: s.ALLOW_PRIVATE_WEBHOOK_TARGETS === 'true',
    webhookRetryBaseSeconds: s.WEBHOOK_RETRY_BASE_SECONDS,
    schedulerMode: s.SCHEDULER_MODE,
    schedulerGroup: s.SCHEDULER_GROUP,
    schedulerRoleArn: s.SCHEDULER_ROLE_ARN,
    embedderMode: s.EMBEDDER,
    searchStateMaxAgeSeconds: s.SEARCH_STATE_MAX_AGE_SECONDS,
    embeddingModelId: s.EMBEDDING_MODEL_ID,
    ticketLists: s.TICKET_LISTS,
    emailLists: s.EMAIL_LISTS,
    /** Endpoint overrides, set only by the local stack and the tests. */
    endpoint: (service: Service) => endpoints[service],
    queueUrl: (name: string) => queueUrls.get(name.toUpperCase()),
    /** Stand-ins accept any region but the SDK still needs one to sign. */
    localRegion: given.AWS_REGION ?? 'us-east-1',
  };
}

export type Config = ReturnType<typeof parse>;

let current: Config | undefined;

/** The parsed configuration; throws, naming the setting, when it is invalid or a deployed stage lacks one. */
export const config = (): Config => (current ??= parse(process.env));

/** Parses the environment again on next use (the local stack and tests that change a setting). */
export function reloadConfig() {
  current = undefined;
}

/** `env.tableName` and the like: the parsed configuration's fields, read through `config()`. */
export const env: Readonly<Config> = new Proxy({} as Config, { get: (_, name) => config()[name as keyof Config] });

/**
 * Called by every handler factory at cold start: a deployed stage refuses to start without its
 * settings and secrets, naming them, rather than running with a development default.
 */
export function assertDeployedConfig() {
  reloadConfig();
  config();
}

/** Credentials for the local stand-ins; real deployments use the Lambda role. */
export const localCredentials = (service: 's3' | 'other') =>
  service === 's3'
    ? { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
    : { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * How long one attempt of a call may wait for its answer before the SDK gives up and retries (three
 * attempts in all): a dependency that hangs turns into a 503 well inside the functions' 29 s, never a
 * hang. S3 carries uploads of up to 10 MB; stand-ins get six times as long (below).
 */
const REQUEST_TIMEOUT_MS = {
  dynamodb: 5_000,
  sqs: 5_000,
  s3: 20_000,
  ses: 8_000,
  scheduler: 5_000,
  secrets: 3_000,
  bedrock: 8_000,
};

/**
 * An SDK client's configuration. Against a stand-in (its `*_ENDPOINT` set): that endpoint, its
 * credentials and a region. Otherwise nothing: the SDK resolves region and credentials itself
 * (AWS_REGION, then the profile's `region`), so the admin CLI signs for the profile's region.
 */
export function awsClientConfig(service: keyof typeof REQUEST_TIMEOUT_MS) {
  const endpoint = (SERVICES as string[]).includes(service) ? env.endpoint(service as Service) : undefined;
  // A stand-in on a busy machine (DynamoDB Local under the whole test suite on two cores) answers far
  // slower than AWS: 30 s an attempt. A route still answers 503 before its function's time is up.
  const slack = endpoint ? 6 : 1;
  // throwOnRequestTimeout: without it the SDK only warns when an answer is late, and keeps waiting.
  const requestHandler = {
    connectionTimeout: 5_000 * slack,
    requestTimeout: REQUEST_TIMEOUT_MS[service] * slack,
    throwOnRequestTimeout: true,
  };
  if (!endpoint) return { requestHandler };
  return {
    requestHandler,
    // DynamoDB Local answers a write that waited too long for its lock with a 500 real DynamoDB never
    // gives ("will succeed in actual DynamoDB"): more of the SDK's backed-off attempts than its 3.
    maxAttempts: 6,
    endpoint,
    region: env.localRegion,
    credentials: localCredentials(service === 's3' ? 's3' : 'other'),
    ...(service === 's3' ? { forcePathStyle: true } : {}),
  };
}

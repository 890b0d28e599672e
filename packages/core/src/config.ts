/**
 * Runtime configuration, read from the environment on first use so that the local stack and the
 * test setup can point the same code at their stand-ins before anything touches AWS.
 */
export type Stage = 'local' | 'dev' | 'sandbox' | 'prod';

const read = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

export const env = {
  get stage(): Stage {
    return (read('STAGE') as Stage | undefined) ?? 'local';
  },
  get tableName(): string {
    return read('TABLE_NAME') ?? 'helpdesk';
  },
  /** Endpoint overrides, set only by the local stack and the tests. */
  endpoint(service: 'dynamodb' | 'sqs' | 's3' | 'ses'): string | undefined {
    return read(`${service.toUpperCase()}_ENDPOINT`);
  },
  queueUrl(name: string): string | undefined {
    return read(`QUEUE_URL_${name.toUpperCase()}`);
  },
  get attachmentsBucket(): string {
    return read('ATTACHMENTS_BUCKET') ?? 'helpdesk-attachments';
  },
  get publicBaseUrl(): string {
    return read('PUBLIC_BASE_URL') ?? 'http://127.0.0.1:3000';
  },
  get defaultSender(): string {
    return read('DEFAULT_SENDER') ?? 'no-reply@helpdesk.local';
  },
  /** The domain whose mail SES (or the local SMTP stand-in) receives: inbound and reply addresses. */
  get inboundDomain(): string {
    return read('INBOUND_DOMAIN') ?? 'inbound.helpdesk.local';
  },
  get sesConfigurationSet(): string | undefined {
    return read('SES_CONFIGURATION_SET');
  },
  /** Webhook targets on loopback/private networks are only allowed where explicitly enabled (local stack). */
  get allowPrivateWebhookTargets(): boolean {
    return read('ALLOW_PRIVATE_WEBHOOK_TARGETS') === 'true';
  },
  /** Unit of the webhook retry backoff (1, 5, 30, 120, 360, 720, 1440 units); tests shrink it. */
  get webhookRetryBaseSeconds(): number {
    const value = Number(read('WEBHOOK_RETRY_BASE_SECONDS') ?? 60);
    return Number.isFinite(value) && value >= 0 ? value : 60;
  },
  get schedulerMode(): 'eventbridge' | 'table' {
    return read('SCHEDULER_MODE') === 'eventbridge' ? 'eventbridge' : 'table';
  },
  get schedulerGroup(): string {
    return read('SCHEDULER_GROUP') ?? 'default';
  },
  get schedulerRoleArn(): string | undefined {
    return read('SCHEDULER_ROLE_ARN');
  },
  /** Signs links and seals webhook secrets; only the local stack may fall back to a development value. */
  get signingSecret(): string {
    const secret = read('SIGNING_SECRET');
    if (secret) return secret;
    if (env.stage !== 'local') throw new Error(missingMessage(['SIGNING_SECRET']));
    return 'local-development-signing-secret';
  },
  get embedderMode(): 'bedrock' | 'local' {
    return read('EMBEDDER') === 'bedrock' ? 'bedrock' : 'local';
  },
  get embeddingModelId(): string {
    return read('EMBEDDING_MODEL_ID') ?? 'amazon.titan-embed-text-v2:0';
  },
};

/** What a deployed stage cannot run without (the stack sets each; the local stack has defaults). */
const REQUIRED_IN_DEPLOYED_STAGES = ['TABLE_NAME', 'SIGNING_SECRET'] as const;

const missingMessage = (names: string[]) =>
  `Stage ${env.stage} cannot start: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not set (the CDK stack sets ${names.length === 1 ? 'it' : 'them'}; see docs/architecture.md, Deployment).`;

/**
 * Called by every handler factory at cold start: a deployed stage refuses to start without its
 * settings and secrets, naming them, rather than running with a development default.
 */
export function assertDeployedConfig() {
  if (env.stage === 'local') return;
  const missing = REQUIRED_IN_DEPLOYED_STAGES.filter((name) => read(name) === undefined);
  if (missing.length > 0) throw new Error(missingMessage(missing));
}

/** Credentials for the local stand-ins; real deployments use the Lambda role. */
export const localCredentials = (service: 's3' | 'other') =>
  service === 's3'
    ? { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
    : { accessKeyId: 'local', secretAccessKey: 'local' };

/** Stand-ins accept any region but the SDK still needs one to sign. */
const LOCAL_REGION = 'us-east-1';

/**
 * An SDK client's configuration. Against a stand-in (its `*_ENDPOINT` set): that endpoint, its
 * credentials and a region. Otherwise nothing: the SDK resolves region and credentials itself
 * (AWS_REGION, then the profile's `region`), so the admin CLI signs for the profile's region.
 */
export function awsClientConfig(service: 'dynamodb' | 'sqs' | 's3' | 'ses') {
  const endpoint = env.endpoint(service);
  if (!endpoint) return {};
  return {
    endpoint,
    region: read('AWS_REGION') ?? LOCAL_REGION,
    credentials: localCredentials(service === 's3' ? 's3' : 'other'),
    ...(service === 's3' ? { forcePathStyle: true } : {}),
  };
}

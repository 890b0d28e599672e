import type { Node } from 'constructs';

/** The stages this app deploys. `local` (packages/local) never goes through CDK. */
export const DEPLOY_STAGES = ['dev', 'sandbox', 'prod'] as const;
export type DeployStage = (typeof DEPLOY_STAGES)[number];

/** Everything the stack reads from CDK context (`cdk.json` defaults, overridable with `-c key=value`). */
export interface StackSettings {
  stage: DeployStage;
  /** Base of links the service writes (rating pages, ...). Empty: the API's own `$default` stage URL. */
  publicBaseUrl?: string;
  /** `From` address used when a send names none. Empty: `no-reply@<stage>.helpdesk.invalid` (set it before sending for real). */
  defaultSender: string;
  /** The Bedrock embedding model the article index and the articles group call. */
  embeddingModelId: string;
  /** Existing SNS topic for alarm notifications; empty: alarms without actions. */
  alarmTopicArn?: string;
  apiThrottleRateLimit: number;
  apiThrottleBurstLimit: number;
  logRetentionDays: number;
}

const str = (node: Node, key: string): string | undefined => {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null) return undefined;
  const s = String(value).trim();
  return s === '' ? undefined : s;
};

const num = (node: Node, key: string, fallback: number): number => {
  const raw = str(node, key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`Context ${key} must be a positive number, got ${raw}`);
  return n;
};

export function readSettings(node: Node): StackSettings {
  const stage = str(node, 'stage') ?? 'dev';
  if (!(DEPLOY_STAGES as readonly string[]).includes(stage)) {
    throw new Error(`Context stage must be one of ${DEPLOY_STAGES.join(', ')}, got ${stage}`);
  }
  const publicBaseUrl = str(node, 'publicBaseUrl');
  if (publicBaseUrl !== undefined && !/^https:\/\//.test(publicBaseUrl)) {
    throw new Error(`Context publicBaseUrl must be an https:// URL, got ${publicBaseUrl}`);
  }
  return {
    stage: stage as DeployStage,
    publicBaseUrl,
    defaultSender: str(node, 'defaultSender') ?? `no-reply@${stage}.helpdesk.invalid`,
    embeddingModelId: str(node, 'embeddingModelId') ?? 'amazon.titan-embed-text-v2:0',
    alarmTopicArn: str(node, 'alarmTopicArn'),
    apiThrottleRateLimit: num(node, 'apiThrottleRateLimit', 50),
    apiThrottleBurstLimit: num(node, 'apiThrottleBurstLimit', 100),
    logRetentionDays: num(node, 'logRetentionDays', 30),
  };
}

import { NARROW_LISTS, type NarrowList } from '@helpdesk/core/kernel/db/table';
import { parseMailbox } from '@helpdesk/core/kernel/mail/mailbox';
import type { Node } from 'constructs';

/** The stages this app deploys. `local` (packages/local) never goes through CDK. */
export const DEPLOY_STAGES = ['dev', 'sandbox', 'prod'] as const;
export type DeployStage = (typeof DEPLOY_STAGES)[number];

/** Everything the stack reads from CDK context (`cdk.json` defaults, overridable with `-c key=value`). */
export interface StackSettings {
  stage: DeployStage;
  /** Base of links the service writes (rating pages, ...). Empty: the API's own `$default` stage URL. */
  publicBaseUrl?: string;
  /** `From` of system mails and of sends naming none (a project's sender comes first). Required outside `dev`, which falls back to `no-reply@dev.helpdesk.invalid`. */
  defaultSender: string;
  /** The Bedrock embedding model the article index and the articles group call. */
  embeddingModelId: string;
  /** The domain SES receives customers' mail for (MX to SES); empty: the stage receives no mail and sends no Reply-To. */
  inboundDomain?: string;
  /** A custom domain for the help centers (CloudFront), with its ACM certificate in us-east-1; empty: the distribution's own domain. */
  portalDomain?: { name: string; certificateArn: string };
  /** Existing SNS topic for alarm notifications; empty: alarms without actions. */
  alarmTopicArn?: string;
  apiThrottleRateLimit: number;
  apiThrottleBurstLimit: number;
  logRetentionDays: number;
  /**
   * `migrating` while a table made by an earlier release gains the ticket list indexes (docs/architecture.md,
   * Upgrading): tickets write both sets of list entries and lists read the earlier ones. Default `narrow`.
   */
  ticketLists: ListsStep;
  /** How many of the four ticket list indexes the table has: CloudFormation adds one per update. Default 4. */
  ticketListIndexes: number;
  /** The same for the email list indexes (Email Logs rows): `-c emailLists=migrating -c emailListIndexes=0..4`. */
  emailLists: ListsStep;
  emailListIndexes: number;
}

type ListsStep = 'narrow' | 'migrating';

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

/**
 * The stage's default sender. SES refuses a `From` on no verified identity, so a stage that sends for
 * real must name one; only `dev` may run on the placeholder (its mails then end `failed`).
 */
function defaultSenderOf(node: Node, stage: string): string {
  const sender = str(node, 'defaultSender');
  if (sender === undefined) {
    if (stage === 'dev') return 'no-reply@dev.helpdesk.invalid';
    throw new Error(
      `Context defaultSender is required for stage ${stage}: pass -c defaultSender="Helpdesk <support@your-domain.com>" ` +
        '(or set it in cdk.json) with an address on a domain verified in SES; see the README, Deploy.',
    );
  }
  const parsed = parseMailbox(sender);
  if ('problem' in parsed) throw new Error(`Context defaultSender "${sender}": ${parsed.problem}.`);
  return sender;
}

function inboundDomainOf(node: Node): string | undefined {
  const domain = str(node, 'inboundDomain')?.toLowerCase();
  if (domain !== undefined && !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain)) {
    throw new Error(`Context inboundDomain must be a domain name such as support-mail.example.com, got ${domain}`);
  }
  return domain;
}

/**
 * A list migration's step (`ticketLists`/`ticketListIndexes`, `emailLists`/`emailListIndexes`); lists read
 * the new indexes only once the table has all four.
 */
function listsOf<E extends NarrowList>(node: Node, entity: E) {
  const stepKey = `${entity}Lists` as const;
  const countKey = `${entity}ListIndexes` as const;
  const all = NARROW_LISTS[entity].length;
  const step = str(node, stepKey) ?? 'narrow';
  if (step !== 'narrow' && step !== 'migrating')
    throw new Error(`Context ${stepKey} must be narrow or migrating, got ${step}`);
  const raw = str(node, countKey) ?? String(all);
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0 || count > all)
    throw new Error(`Context ${countKey} must be 0 to ${all}, got ${raw}`);
  if (count < all && step !== 'migrating')
    throw new Error(
      `Context ${countKey}=${count} needs -c ${stepKey}=migrating: lists read the new indexes only once all exist`,
    );
  return { [stepKey]: step, [countKey]: count } as Record<typeof stepKey, ListsStep> & Record<typeof countKey, number>;
}

export function readSettings(node: Node): StackSettings {
  const stage = str(node, 'stage') ?? 'dev';
  if (!(DEPLOY_STAGES as readonly string[]).includes(stage)) {
    throw new Error(`Context stage must be one of ${DEPLOY_STAGES.join(', ')}, got ${stage}`);
  }
  const publicBaseUrl = str(node, 'publicBaseUrl');
  if (publicBaseUrl !== undefined && !/^https:\/\//.test(publicBaseUrl)) {
    throw new Error(`Context publicBaseUrl must be an https:// URL, got ${publicBaseUrl}`);
  }
  const portalDomain = str(node, 'portalDomain')?.toLowerCase();
  const portalCertificateArn = str(node, 'portalCertificateArn');
  if ((portalDomain === undefined) !== (portalCertificateArn === undefined))
    throw new Error(
      'Context portalDomain and portalCertificateArn go together (a certificate in us-east-1 for the domain)',
    );
  if (portalCertificateArn !== undefined && !portalCertificateArn.startsWith('arn:aws:acm:us-east-1:'))
    throw new Error(
      `Context portalCertificateArn must be an ACM certificate in us-east-1, got ${portalCertificateArn}`,
    );
  return {
    stage: stage as DeployStage,
    publicBaseUrl,
    ...(portalDomain && portalCertificateArn
      ? { portalDomain: { name: portalDomain, certificateArn: portalCertificateArn } }
      : {}),
    defaultSender: defaultSenderOf(node, stage),
    embeddingModelId: str(node, 'embeddingModelId') ?? 'amazon.titan-embed-text-v2:0',
    inboundDomain: inboundDomainOf(node),
    alarmTopicArn: str(node, 'alarmTopicArn'),
    apiThrottleRateLimit: num(node, 'apiThrottleRateLimit', 50),
    apiThrottleBurstLimit: num(node, 'apiThrottleBurstLimit', 100),
    logRetentionDays: num(node, 'logRetentionDays', 30),
    ...listsOf(node, 'ticket'),
    ...listsOf(node, 'email'),
  };
}

import type { Group } from '@helpdesk/core/kernel/api/route';
import type { QueueName } from '@helpdesk/core/top/queues/registry';

/**
 * What each Lambda may touch besides the table (every function reads and writes the one table) and
 * its own log group. Consuming a queue is granted only by the event source mapping of its consumer.
 * Keep this table the single place where a function's permissions are decided.
 */
export interface FunctionGrants {
  /** Queues the function may send to. */
  send: readonly QueueName[];
  /** Attachments bucket read/write (objects only). */
  bucket?: boolean;
  /** ses:SendEmail / SendRawEmail through the stage's configuration set. */
  ses?: boolean;
  /** bedrock:InvokeModel on the embedding model. */
  bedrock?: boolean;
  /**
   * Create/delete one-time schedules in the stage's group, and pass the scheduler's role (which may
   * only send to SCHEDULE_TARGETS).
   */
  scheduler?: boolean;
}

/** Queues a one-time schedule may target (core's scheduleOnce callers: emails/create.ts, webhooks/deliver.ts). */
export const SCHEDULE_TARGETS = ['emails', 'webhooks'] as const satisfies readonly QueueName[];

/** The simple, honest rule: any HTTP group may emit domain events, sends, log events and index work. */
const HTTP_SENDS = ['webhooks', 'emails', 'logs', 'articleIndex'] as const satisfies readonly QueueName[];

export const HTTP_GRANTS: Record<Group, FunctionGrants> = {
  account: { send: [] },
  /** Attachments upload, download links and delete. */
  tickets: { send: HTTP_SENDS, bucket: true },
  /** `POST /emails/send` with `scheduledAt` creates a one-time schedule; cancelling deletes it. */
  emails: { send: HTTP_SENDS, scheduler: true },
  templates: { send: HTTP_SENDS },
  /** Search embeds the query text and reads the search snapshots from the bucket. */
  articles: { send: HTTP_SENDS, bedrock: true, bucket: true },
  logs: { send: HTTP_SENDS },
  customers: { send: HTTP_SENDS },
  feedback: { send: HTTP_SENDS },
  webhooks: { send: HTTP_SENDS },
  /** The emailed rating page and other key-less routes. */
  public: { send: HTTP_SENDS },
  /** The OpenAPI document and its viewer: static, emits nothing. */
  docs: { send: [] },
  /** The console: sign-in requests go to the emails queue (its consumer mails the links); ticket replies, webhook tests and attachment links as in their groups. */
  console: { send: HTTP_SENDS, bucket: true },
};

export const httpGrants = (group: Group): FunctionGrants => {
  const grants = HTTP_GRANTS[group];
  if (!grants) throw new Error(`No grants declared for endpoint group ${group} (infra/grants.ts)`);
  return grants;
};

/** Keyed by consumer module name (functions/queue/<consumer>.ts). */
export const CONSUMER_GRANTS: Record<string, FunctionGrants> = {
  /**
   * Delivers signed POSTs. A retry within 15 minutes goes back on the webhooks queue with a delay; a
   * later one is a one-time schedule onto the webhooks queue (webhooks/deliver.ts).
   */
  webhooks: { send: ['webhooks'], scheduler: true },
  /**
   * Renders and sends through SES; keeps the rendered copy of a live send in the bucket (for the
   * console); emits email.* webhook events; a sandbox send puts its simulated SES event on the
   * sesEvents queue (emails/deliver.ts). It does not schedule.
   */
  emails: { send: ['webhooks', 'sesEvents'], ses: true, bucket: true },
  /** Fingerprints log events and upserts log issues: the table only. */
  'log-grouping': { send: [] },
  /** Embeds articles for search; writes the search snapshots to the bucket. */
  'article-index': { send: [], bedrock: true, bucket: true },
  /** Bounces and complaints -> suppression list, email.bounced webhook events. */
  'ses-events': { send: ['webhooks'] },
  /** Reads raw received mail from the bucket, stores its attachments under the ticket; ticket and message events. */
  inbound: { send: ['webhooks'], bucket: true },
};

export const consumerGrants = (consumer: string): FunctionGrants => {
  const grants = CONSUMER_GRANTS[consumer];
  if (!grants) throw new Error(`No grants declared for queue consumer ${consumer} (infra/grants.ts)`);
  return grants;
};

import type { Group } from '@helpdesk/core/kernel/api/route';
import { QUEUE_NAMES, type QueueName } from '@helpdesk/core/top/queues/registry';

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
   * One-time schedules in the stage's group: `create` (and pass the scheduler's role, which may only
   * send to SCHEDULE_TARGETS) or `delete`.
   */
  scheduler?: 'create' | 'delete';
}

/** Queues a one-time schedule may target (outbox items with `at`: emails/create.ts, webhooks/deliver.ts). */
export const SCHEDULE_TARGETS = ['emails', 'webhooks'] as const satisfies readonly QueueName[];

/**
 * No HTTP function sends to a queue: a write commits its side effects as outbox items, which the
 * outbox relay (RELAY_GRANTS) moves to their queues.
 */
export const HTTP_GRANTS: Record<Group, FunctionGrants> = {
  account: { send: [] },
  /** Attachments upload, download links and delete. */
  tickets: { send: [], bucket: true },
  /** Cancelling a scheduled send deletes its one-time schedule (the relay created it). */
  emails: { send: [], scheduler: 'delete' },
  templates: { send: [] },
  /** Search embeds the query text and reads the search snapshots from the bucket. */
  articles: { send: [], bedrock: true, bucket: true },
  logs: { send: [] },
  customers: { send: [] },
  feedback: { send: [] },
  webhooks: { send: [] },
  /** The emailed rating page and other key-less routes. */
  public: { send: [] },
  /** The OpenAPI document and its viewer: static, emits nothing. */
  docs: { send: [] },
  /** The help centers: search reads the snapshots, a request stores its files. */
  portal: { send: [], bucket: true },
  /** The console: ticket replies and attachment links as in their groups. */
  console: { send: [], bucket: true },
};

export const httpGrants = (group: Group): FunctionGrants => {
  const grants = HTTP_GRANTS[group];
  if (!grants) throw new Error(`No grants declared for endpoint group ${group} (infra/grants.ts)`);
  return grants;
};

/** Keyed by consumer module name (functions/queue/<consumer>.ts). Their follow-up work is outbox items too. */
export const CONSUMER_GRANTS: Record<string, FunctionGrants> = {
  /** Delivers signed POSTs; a retry is an outbox item (with a delay, or a schedule past 15 minutes). */
  webhooks: { send: [] },
  /** Renders and sends through SES; keeps the rendered copy of a live send in the bucket (for the console). */
  emails: { send: [], ses: true, bucket: true },
  /** Fingerprints log events and upserts log issues: the table only. */
  'log-grouping': { send: [] },
  /** Embeds articles for search; writes the search snapshots to the bucket. */
  'article-index': { send: [], bedrock: true, bucket: true },
  /** Bounces and complaints -> suppression list, email.bounced webhook events. */
  'ses-events': { send: [] },
  /** Reads raw received mail from the bucket, stores its attachments under the ticket; ticket and message events. */
  inbound: { send: [], bucket: true },
  /** Takes a deleted ticket field's values off the tickets: the table only (its next round is an outbox item). */
  'field-cleanup': { send: [] },
  /** Records an SLA breach on the ticket, announces warnings and breaches, deletes schedules a change made stale. */
  'sla-timers': { send: [], scheduler: 'delete' },
  /** Re-chooses the SLA policy of open tickets, a round a message (the next round is an outbox item). */
  'sla-reapply': { send: [] },
  /** Checks alert rules against an issue's counters; alerts, their mails and events are table writes (outbox). */
  'log-alerts': { send: [] },
};

/** The outbox relay (functions/stream/outbox-relay.ts): the only function that sends to queues or creates schedules. */
export const RELAY_GRANTS: FunctionGrants = { send: QUEUE_NAMES, scheduler: 'create' };

export const consumerGrants = (consumer: string): FunctionGrants => {
  const grants = CONSUMER_GRANTS[consumer];
  if (!grants) throw new Error(`No grants declared for queue consumer ${consumer} (infra/grants.ts)`);
  return grants;
};

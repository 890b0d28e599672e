import { Entity } from 'electrodb';
import { env } from '../../kernel/config.js';
import { timestamps } from '../../kernel/db/attributes.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { EMAIL_LIST_GSI_NAMES, EMAIL_LIST_INDEXES } from '../../kernel/db/indexes.js';
import { forward, lazy } from '../../kernel/db/lazy.js';
import { listMigration } from '../../kernel/db/list-reindex.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { BLOCK_REASONS, EMAIL_STATUSES } from './schemas.js';

/** Custom sends share one partition of the template index (`@` cannot start a project key's segment here). */
export const CUSTOM_REF = '#custom';

const stringList = { type: 'list', items: { type: 'string' } } as const;

const emailModel = { entity: 'emailLog', version: '1', service: SERVICE } as const;

const emailAttributes = {
  ...tenantAttributes,
  emailId: { type: 'string', required: true, readOnly: true },
  kind: { type: ['template', 'custom'] as const, required: true, readOnly: true },
  status: { type: EMAIL_STATUSES, required: true },
  to: { type: 'string', required: true, readOnly: true },
  /** `to`'s bare address lower-cased (no display name): the recipient filter is case-insensitive. */
  recipient: { type: 'string', required: true, readOnly: true },
  cc: { ...stringList, required: true, default: () => [] },
  bcc: { ...stringList, required: true, default: () => [] },
  from: { type: 'string', required: true },
  replyTo: { type: 'string' },
  headers: { type: 'any' },
  metadata: { type: 'any' },
  /** Open and click tracking asked for this send (absent: off). */
  trackOpens: { type: 'boolean' },
  trackClicks: { type: 'boolean' },
  subject: { type: 'string' },
  templateKey: { type: 'string', readOnly: true },
  /** The template filter's index value: the template key, or CUSTOM_REF for custom sends. */
  templateRef: { type: 'string', required: true, readOnly: true },
  templateVersion: { type: 'number' },
  /** What rows written before 2026-11-27 render from; newer sends keep it in EmailContent. */
  variables: { type: 'string' },
  body: { type: 'string' },
  layout: { type: 'string' },
  blocked: { type: 'boolean', required: true, default: false },
  blockReason: { type: BLOCK_REASONS },
  scheduledAt: { type: 'string' },
  sentAt: { type: 'string' },
  /** Sandbox only: what would have been sent. */
  captured: {
    type: 'map',
    properties: { subject: { type: 'string' }, html: { type: 'string' }, text: { type: 'string' } },
  },
  error: { type: 'string' },
  sesMessageId: { type: 'string' },
  /** SES's engagement events (configuration-set event publishing): first times and counts. */
  deliveredAt: { type: 'string' },
  openedAt: { type: 'string' },
  opens: { type: 'number' },
  clickedAt: { type: 'string' },
  clicks: { type: 'number' },
  lastClickedLink: { type: 'string' },
  /**
   * SES's message id from its Send (or Delivery) event: SES accepted the mail. A consumer that
   * died after SES answered leaves the row `sending`; this tells the next one not to send it again.
   */
  sesAcceptedId: { type: 'string' },
  /** The conversation a system mail belongs to (a ticket id): delivery threads it (In-Reply-To, References). */
  threadId: { type: 'string', readOnly: true },
  /** The threading headers delivery added, as sent (or captured). */
  threadHeaders: { type: 'any' },
  /** Whether this send took a unit of the monthly email allowance (given back when it never goes out). */
  quotaCounted: { type: 'boolean', required: true, default: false },
  /** When the email consumer claimed the row; a claim older than the queue's visibility timeout is stale. */
  claimedAt: { type: 'number' },
  ...timestamps,
} as const;

const byId = {
  pk: { field: 'pk', composite: ['projectId', 'env', 'emailId'] },
  sk: { field: 'sk', composite: [] },
} as const;

/** A list index: the tenant and one filter, newest first by creation (which no write moves). */
function listIndex<const F extends readonly (keyof typeof emailAttributes)[]>(
  index: string,
  filter: F,
  projection?: readonly string[],
) {
  return {
    index,
    ...(projection ? { projection: [...projection] } : {}),
    pk: { field: `${index}pk`, composite: ['projectId', 'env', ...filter] as const },
    sk: { field: `${index}sk`, composite: ['createdAt', 'emailId'] as const },
  };
}

/** The list's filters, each with its own index of narrow entries (kernel/db/indexes.ts). */
const { byCreated, byRecipient, byTemplate, byStatus } = EMAIL_LIST_INDEXES;
const listIndexes = {
  byCreated: listIndex(byCreated.name, [], byCreated.attributes),
  byRecipient: listIndex(byRecipient.name, ['recipient'], byRecipient.attributes),
  byTemplate: listIndex(byTemplate.name, ['templateRef'], byTemplate.attributes),
  byStatus: listIndex(byStatus.name, ['status'], byStatus.attributes),
};

/**
 * The Email Logs row: one per send, written by the API before the send is queued and moved along its
 * statuses by the email and SES-event consumers. Every list filter has its own index inside the
 * project+environment partition, so a filtered list reads only matching entries.
 */
const narrowEmail = lazy(
  () =>
    new Entity({ model: emailModel, attributes: emailAttributes, indexes: { byId, ...listIndexes } }, entityConfig()),
);

/**
 * The row while a table made by an earlier release gains the email list indexes (EMAIL_LISTS=migrating):
 * lists read the earlier whole-row entries on the shared indexes, and every write keeps both sets, so
 * `admin emails:reindex-lists` has only the rows nobody wrote meanwhile left to do.
 */
const migratingEmail = lazy(
  () =>
    new Entity(
      {
        model: emailModel,
        attributes: emailAttributes,
        indexes: {
          byId,
          byCreated: listIndex('gsi1', []),
          byRecipient: listIndex('gsi2', ['recipient']),
          byTemplate: listIndex('gsi3', ['templateRef']),
          byStatus: listIndex('gsi4', ['status']),
          listByCreated: listIndexes.byCreated,
          listByRecipient: listIndexes.byRecipient,
          listByTemplate: listIndexes.byTemplate,
          listByStatus: listIndexes.byStatus,
        },
      },
      entityConfig(),
    ),
);

/** `admin emails:reindex-lists` (kernel/db/list-reindex.ts): the list keys an item gets, and the earlier ones. */
export const emailListMigration = listMigration(emailModel.entity, EMAIL_LIST_GSI_NAMES, narrowEmail);
export const { keys: EMAIL_LIST_KEYS, legacyKeys: LEGACY_EMAIL_LIST_KEYS } = emailListMigration;

/** The Email Logs entity the configuration names; both read and write the same items. */
export const EmailLog = forward(() =>
  env.emailLists === 'migrating' ? (migratingEmail as unknown as typeof narrowEmail) : narrowEmail,
);

/**
 * What a send renders from: a custom send's body and layout, a template send's variables (JSON). An
 * item of its own beside the row, in no index: the row moves along its statuses (queued, sending,
 * sent, delivered, opened...) with a copy in each of four indexes, and a body of up to 50,000
 * characters copied with every one of them made each status change pay for it again (issue 36).
 */
export const EmailContent = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'emailContent', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          emailId: { type: 'string', required: true, readOnly: true },
          variables: { type: 'string', readOnly: true },
          body: { type: 'string', readOnly: true },
          layout: { type: 'string', readOnly: true },
        },
        indexes: {
          byId: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'emailId'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/** Suppressed recipients per project and environment (address lower-cased). */
export const Suppression = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'suppression', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          email: { type: 'string', required: true, readOnly: true },
          reason: { type: BLOCK_REASONS, required: true },
          /** The send whose bounce or complaint suppressed the address. */
          emailId: { type: 'string' },
          ...timestamps,
        },
        indexes: {
          byEmail: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['email'] },
          },
        },
      },
      entityConfig(),
    ),
);

/** Idempotency-Key records: the first request's body hash and, once done, its answer. Expire after 24 h. */
export const IdempotencyRecord = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'emailIdempotency', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          key: { type: 'string', required: true, readOnly: true },
          requestHash: { type: 'string', required: true },
          /** The JSON send result; absent while the first request is still in flight. */
          result: { type: 'string' },
          /** Epoch ms after which an unfinished claim is considered abandoned. */
          lockedUntil: { type: 'number', required: true },
          expiresAt: { type: 'number', required: true },
        },
        indexes: {
          byKey: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'key'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * Per project, environment and UTC day: how many emails were sent and what SES reported of them (the
 * console's chart). Each count is added in the transaction of the change it counts, so a redelivered
 * send or SES event that changes nothing counts nothing. Kept about 13 months.
 */
export const EmailDay = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'emailDay', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          /** YYYY-MM-DD (UTC). */
          day: { type: 'string', required: true, readOnly: true },
          sent: { type: 'number' },
          delivered: { type: 'number' },
          bounced: { type: 'number' },
          complained: { type: 'number' },
          opened: { type: 'number' },
          clicked: { type: 'number' },
          expiresAt: { type: 'number' },
        },
        indexes: {
          byDay: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['day'] },
          },
        },
      },
      entityConfig(),
    ),
);

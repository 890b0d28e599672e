import { Entity, Service } from 'electrodb';
import { env } from '../../kernel/config.js';
import { entityConfig, SERVICE } from '../../kernel/db/client.js';
import { TICKET_LIST_ATTRIBUTES, TICKET_LIST_GSI_NAMES } from '../../kernel/db/indexes.js';
import { forward, lazy } from '../../kernel/db/lazy.js';
import { listMigration } from '../../kernel/db/list-reindex.js';
import { tenantAttributes } from '../../kernel/db/tenant-attributes.js';
import { customerCopy } from '../customers/copies.js';
import { CATEGORIES, PRIORITIES, SENDER_TYPES, STATUSES, VISIBILITIES } from './values.js';

export * from './values.js';

/** Every list index sorts by the last activity, newest first when read descending. */
const byActivity = ['updatedAt', 'ticketId'] as const;

/** Without `readonly` on the item's fields (a const object's would reach the item type): writers build items. */
const writable = <T>(attributes: T): { -readonly [K in keyof T]: T[K] } => attributes;

const ticketAttributes = writable({
  ...tenantAttributes,
  ticketId: { type: 'string', required: true, readOnly: true },
  number: { type: 'number', required: true, readOnly: true },
  subject: { type: 'string', required: true },
  status: { type: STATUSES, required: true },
  priority: { type: PRIORITIES, required: true },
  category: { type: CATEGORIES, required: true },
  /** Member id or UNASSIGNED (an index key cannot be null). */
  assignee: { type: 'string', required: true },
  customerId: { type: 'string', required: true, readOnly: true },
  customerEmail: { type: 'string', required: true, readOnly: true },
  customerName: { type: 'string', required: true },
  lastSenderType: { type: SENDER_TYPES, required: true },
  lastMessageAt: { type: 'string', required: true },
  /** Bytes of stored attachments, released when the ticket is deleted. */
  attachmentBytes: { type: 'number', required: true, default: 0 },
  closedAt: { type: 'string' },
  /** The closed ticket this one continues (a customer's mail answered it). */
  followUpOf: { type: 'string', readOnly: true },
  /** The ticket this one was split from (POST /tickets/{id}/messages/{messageId}/split). */
  splitFrom: { type: 'string', readOnly: true },
  /** Tickets split from this one, oldest first. */
  splitInto: { type: 'list', items: { type: 'string' } },
  /** Set on a merged ticket: the ticket it was merged into (it is read-only meanwhile). */
  mergedInto: { type: 'string' },
  /** A merged ticket's undo record (merge.ts MergeRecord): what unmerge restores. */
  merge: { type: 'any' },
  /** Tickets whose threads this one shows: merged into it, or into those (merge.ts). */
  mergedFrom: { type: 'list', items: { type: 'string' } },
  /** Customers of tickets merged into this one (merge.ts TicketCustomer): copied on public replies. */
  otherCustomers: { type: 'any' },
  /** Where the ticket was opened (ticket.created's source): SLA policies match on it. */
  source: { type: 'string', readOnly: true },
  /** First reply and resolution times, replies and reopens (sla/metrics.ts TicketMetrics). */
  metrics: { type: 'any' },
  /** The SLA clock (sla/clock.ts SlaClock), moved by every write that moves it, in its commit. */
  sla: { type: 'any' },
  /** Values of the project's ticket fields by key (areas/ticket-fields), checked against their definitions. */
  customFields: { type: 'any' },
  createdAt: { type: 'string', required: true, readOnly: true },
  updatedAt: { type: 'string', required: true },
} as const);

const ticketModel = { entity: 'ticket', version: '1', service: SERVICE } as const;

const byId = {
  collection: 'thread',
  pk: { field: 'pk', composite: ['projectId', 'env', 'ticketId'] },
  sk: { field: 'sk', composite: [] },
} as const;

/** A list key: its values joined by `#` as they are (no entity or attribute labels: the index holds tickets only). */
function listKey<const C extends readonly (keyof typeof ticketAttributes)[]>(field: string, composite: C) {
  return { field, composite, template: composite.map((name) => `\${${name}}`).join('#'), casing: 'none' as const };
}

/** A list index: an entry of the row's attributes (kernel/db/table.ts), keyed by the tenant and one filter. */
function listIndex<const P extends readonly (keyof typeof ticketAttributes)[]>(index: string, filter: P) {
  return {
    index,
    projection: [...TICKET_LIST_ATTRIBUTES],
    pk: listKey(`${index}pk`, ['projectId', 'env', ...filter] as const),
    sk: listKey(`${index}sk`, byActivity),
  };
}

/** The list's filters; each filter reads only its own partitions (see list.ts). */
const listIndexes = {
  recent: listIndex('gsi5', []),
  byStatus: listIndex('gsi6', ['status', 'lastSenderType']),
  byAssignee: listIndex('gsi7', ['assignee']),
  byPriority: listIndex('gsi8', ['priority', 'category']),
};

/**
 * The ticket. Its thread (messages, attachments, tags) shares its partition, so the detail is one
 * Query on the `thread` collection. The list indexes hold narrow entries (kernel/db/table.ts);
 * `search` reads compact search items instead (see search.ts).
 */
const narrowTicket = lazy(
  () =>
    new Entity({ model: ticketModel, attributes: ticketAttributes, indexes: { byId, ...listIndexes } }, entityConfig()),
);

/**
 * The ticket while a table made by an earlier release gains the list indexes (TICKET_LISTS=migrating):
 * lists still read the earlier whole-item indexes on the shared GSIs, and every write keeps both sets
 * of entries, so `admin tickets:reindex-lists` has only the tickets nobody wrote meanwhile left to do.
 */
const migratingTicket = lazy(
  () =>
    new Entity(
      {
        model: ticketModel,
        attributes: ticketAttributes,
        indexes: {
          byId,
          recent: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env'] },
            sk: { field: 'gsi1sk', composite: byActivity },
          },
          byStatus: {
            index: 'gsi2',
            pk: { field: 'gsi2pk', composite: ['projectId', 'env', 'status', 'lastSenderType'] },
            sk: { field: 'gsi2sk', composite: byActivity },
          },
          byAssignee: {
            index: 'gsi3',
            pk: { field: 'gsi3pk', composite: ['projectId', 'env', 'assignee'] },
            sk: { field: 'gsi3sk', composite: byActivity },
          },
          byPriority: {
            index: 'gsi4',
            pk: { field: 'gsi4pk', composite: ['projectId', 'env', 'priority', 'category'] },
            sk: { field: 'gsi4sk', composite: byActivity },
          },
          listRecent: listIndexes.recent,
          listByStatus: listIndexes.byStatus,
          listByAssignee: listIndexes.byAssignee,
          listByPriority: listIndexes.byPriority,
        },
      },
      entityConfig(),
    ),
);

/** `admin tickets:reindex-lists` (kernel/db/list-reindex.ts): the list keys an item gets, and the earlier ones. */
export const ticketListMigration = listMigration(ticketModel.entity, TICKET_LIST_GSI_NAMES, narrowTicket);
export const { keys: LIST_KEYS, legacyKeys: LEGACY_LIST_KEYS } = ticketListMigration;

/** The ticket entity the configuration names; both read and write the same items. */
export const Ticket = forward(() =>
  env.ticketLists === 'migrating' ? (migratingTicket as unknown as typeof narrowTicket) : narrowTicket,
);

export const Message = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketMessage', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          ticketId: { type: 'string', required: true, readOnly: true },
          messageId: { type: 'string', required: true, readOnly: true },
          senderType: { type: SENDER_TYPES, required: true, readOnly: true },
          visibility: { type: VISIBILITIES, required: true, readOnly: true },
          body: { type: 'string', required: true, readOnly: true },
          /** The S3 key of the whole mail's text and HTML, when the body is the reply extracted from it. */
          originalKey: { type: 'string', readOnly: true },
          createdAt: { type: 'string', required: true, readOnly: true },
        },
        indexes: {
          byTicket: {
            collection: 'thread',
            pk: { field: 'pk', composite: ['projectId', 'env', 'ticketId'] },
            sk: { field: 'sk', composite: ['createdAt', 'messageId'] },
          },
        },
      },
      entityConfig(),
    ),
);

export const Attachment = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketAttachment', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          ticketId: { type: 'string', required: true, readOnly: true },
          messageId: { type: 'string', required: true, readOnly: true },
          attachmentId: { type: 'string', required: true, readOnly: true },
          /** Order within the message, as posted. */
          position: { type: 'number', required: true, readOnly: true },
          fileName: { type: 'string', required: true, readOnly: true },
          fileSize: { type: 'number', required: true, readOnly: true },
          mimeType: { type: 'string', required: true, readOnly: true },
          objectKey: { type: 'string', required: true, readOnly: true },
          createdAt: { type: 'string', required: true, readOnly: true },
        },
        indexes: {
          byTicket: {
            collection: 'thread',
            pk: { field: 'pk', composite: ['projectId', 'env', 'ticketId'] },
            sk: { field: 'sk', composite: ['messageId', 'attachmentId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * A file the client PUTs straight to S3 (POST /attachments), attachable to one message of its project and
 * environment until `expiresAt` (TTL). `attachedTo` is the message that took it: an upload is used once.
 */
export const Upload = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketUpload', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          uploadId: { type: 'string', required: true, readOnly: true },
          objectKey: { type: 'string', required: true, readOnly: true },
          fileName: { type: 'string', required: true, readOnly: true },
          mimeType: { type: 'string', required: true, readOnly: true },
          size: { type: 'number', required: true, readOnly: true },
          createdAt: { type: 'string', required: true, readOnly: true },
          /** Epoch seconds (the table's TTL attribute). */
          expiresAt: { type: 'number', required: true, readOnly: true },
          /** `<ticketId>/<messageId>` once attached. */
          attachedTo: { type: 'string' },
        },
        indexes: {
          byId: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'uploadId'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

export const Tag = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketTag', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          ticketId: { type: 'string', required: true, readOnly: true },
          /** Lower-cased: tags compare case-insensitively. */
          tagKey: { type: 'string', required: true, readOnly: true },
          /** As first given. */
          tag: { type: 'string', required: true, readOnly: true },
          createdAt: { type: 'string', required: true, readOnly: true },
          /** Place among the tags given on create, which share one createdAt (absent: added later). */
          position: { type: 'number', readOnly: true },
        },
        indexes: {
          byTicket: {
            collection: 'thread',
            pk: { field: 'pk', composite: ['projectId', 'env', 'ticketId'] },
            sk: { field: 'sk', composite: ['tagKey'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * A customer's tickets, newest first: a small copy of the row (status kept in step) under the
 * customer's partition, in the customer's history collection: the detail reads them with the record.
 */
export const CustomerTicket = lazy(() =>
  customerCopy('customerTicket', 'ticketId', {
    ticketId: { type: 'string', required: true, readOnly: true },
    number: { type: 'number', required: true, readOnly: true },
    subject: { type: 'string', required: true, readOnly: true },
    status: { type: STATUSES, required: true },
  }),
);

/**
 * A ticket whose SLA clock runs, keyed by its earliest due time: `GET /tickets?sla=` reads these in due
 * order (breached: due before now; at risk: due ahead, past `warnAt`). Written in the ticket's own
 * transaction whenever that due time moves, removed when no target runs.
 */
export const TicketDue = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketDue', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          dueAt: { type: 'string', required: true, readOnly: true },
          ticketId: { type: 'string', required: true, readOnly: true },
          /** Where the earliest-due target's at-risk share begins (absent: it has none ahead). */
          warnAt: { type: 'string', readOnly: true },
        },
        indexes: {
          byDue: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: ['dueAt', 'ticketId'] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * A day's ticket metrics per project and environment: histograms of first-reply and resolution minutes
 * and SLA outcomes, per group (all, per priority, per assignee), as `<kind>#<group>[#<bucket>]` counters
 * (dynamic names written with raw ADD expressions, metrics.ts), one item per day and group under the
 * day's key. Added in the transaction of the ticket
 * write that produced them, so GET /tickets/metrics reads counts, never tickets.
 */
export const TicketMetricsDay = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketMetricsDay', version: '1', service: SERVICE },
        attributes: { ...tenantAttributes, day: { type: 'string', required: true, readOnly: true } },
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

/** Ticket number -> ticket id; its conditional put also guarantees the number is used once. */
export const TicketNumber = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketNumber', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          number: { type: 'number', required: true, readOnly: true },
          ticketId: { type: 'string', required: true, readOnly: true },
        },
        indexes: {
          byNumber: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'number'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

/**
 * Per project and environment: the ticket number counter and the list's counts (see stats.ts), which
 * are dynamic attribute names written with raw expressions on this item's key.
 */
export const TicketStats = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'ticketStats', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          lastNumber: { type: 'number' },
        },
        indexes: {
          byProject: {
            pk: { field: 'pk', composite: ['projectId', 'env'] },
            sk: { field: 'sk', composite: [] },
          },
        },
      },
      entityConfig(),
    ),
);

export const threadService = lazy(
  () => new Service({ ticket: Ticket, message: Message, attachment: Attachment, tag: Tag }, entityConfig()),
);

import * as v from 'valibot';
import { integer, isoDateTime, jsonObject, maxChars, stringMap, uuid } from '../../kernel/api/schemas.js';
import { mailbox } from '../../kernel/mail/mailbox.js';
import { plainLine } from '../../kernel/mail/plain-line.js';

export const EMAIL_STATUSES = [
  'queued',
  'scheduled',
  'sending',
  'sent',
  'delivered',
  'bounced',
  'complained',
  'failed',
  'blocked',
  'captured',
  'canceled',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const BLOCK_REASONS = ['bounced', 'complained', 'manual'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

export const MAX_RECIPIENTS = 50;
export const MAX_SCHEDULE_DAYS = 30;
export const MAX_BATCH = 100;
/** Template keys become parts of DynamoDB keys (list indexes): bounded before any read (addresses: mailbox.ts). */
export const TEMPLATE_KEY_MAX = 200;

const addressList = v.pipe(v.array(mailbox), v.maxLength(MAX_RECIPIENTS));

/** Headers the service sets itself from the send's own fields, and SES's own `X-SES-*` controls. */
const RESERVED_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'reply-to',
  'sender',
  'date',
  'message-id',
  'content-type',
  'content-transfer-encoding',
  'mime-version',
  'return-path',
]);
const isReservedHeader = (name: string) =>
  RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('x-ses-');

const headerMap = v.pipe(
  stringMap({
    maxKeys: 50,
    key: { pattern: /^[A-Za-z0-9-]{1,100}$/, says: 'Header names are 1 to 100 letters, digits or hyphens' },
  }),
  v.check(
    (m) => Object.keys(m).every((name) => !isReservedHeader(name)),
    'From, To, Cc, Bcc, Subject, Reply-To, Sender, Date, Message-Id, Content-Type, Content-Transfer-Encoding, MIME-Version, Return-Path and X-SES-* headers are set by the service',
  ),
);

const metadataMap = stringMap({
  maxKeys: 50,
  key: { pattern: /^[\s\S]{1,100}$/, says: 'Keys are 1 to 100 characters' },
});

export const idempotencyKey = v.pipe(v.string(), v.minLength(1), v.maxLength(256));

const tracking = v.pipe(
  // Both named, so the object is never empty (an empty one would also take an array).
  v.strictObject({ opens: v.boolean(), clicks: v.boolean() }),
  v.description(
    'Open and click tracking for this send, off unless asked: SES adds an image for opens and rewrites links for clicks, and `email.opened` / `email.clicked` follow. Sandbox sends are captured, never sent, so never tracked.',
  ),
);

const sendEntries = {
  to: mailbox,
  from: v.optional(mailbox),
  replyTo: v.optional(mailbox),
  cc: v.optional(addressList),
  bcc: v.optional(addressList),
  headers: v.optional(headerMap),
  metadata: v.optional(metadataMap),
  tracking: v.optional(tracking),
  scheduledAt: v.optional(isoDateTime),
  templateKey: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(TEMPLATE_KEY_MAX))),
  variables: v.optional(jsonObject),
  subject: v.optional(
    v.pipe(v.string(), v.minLength(1), maxChars(200), plainLine, v.metadata({ examples: ['Your order has shipped'] })),
  ),
  body: v.optional(v.pipe(v.string(), v.minLength(1), maxChars(50000))),
  layout: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
};

/** A send is either a template send or a custom one; the message says which fields clash or are missing. */
const contentProblem = (s: {
  templateKey?: string;
  variables?: unknown;
  subject?: string;
  body?: string;
  layout?: string;
}) => {
  const custom = s.subject !== undefined || s.body !== undefined || s.layout !== undefined;
  if (s.templateKey !== undefined && custom)
    return 'Give either templateKey (with variables) or subject and body, not both.';
  if (s.templateKey === undefined && !custom) return 'Give templateKey (with variables), or subject and body.';
  if (s.templateKey === undefined && s.variables !== undefined) return 'variables go with templateKey.';
  if (custom && (s.subject === undefined || s.body === undefined)) return 'A custom send needs both subject and body.';
  return undefined;
};

/** The same rule for the document: exactly one of the two kinds of send. */
const oneKindOfSend = {
  oneOf: [
    {
      title: 'A template send',
      required: ['templateKey'],
      not: { anyOf: [{ required: ['subject'] }, { required: ['body'] }, { required: ['layout'] }] },
    },
    {
      title: 'A custom send',
      required: ['subject', 'body'],
      not: { anyOf: [{ required: ['templateKey'] }, { required: ['variables'] }] },
    },
  ],
};

const withContentCheck = <S extends v.GenericSchema<Parameters<typeof contentProblem>[0]>>(schema: S) =>
  v.pipe(
    schema,
    v.rawCheck(({ dataset, addIssue }) => {
      const problem = dataset.typed ? contentProblem(dataset.value) : undefined;
      if (problem) addIssue({ message: problem });
    }),
    v.metadata(oneKindOfSend),
  );

export const sendBody = withContentCheck(v.strictObject(sendEntries));
export type SendBody = v.InferOutput<typeof sendBody>;

export const batchItem = withContentCheck(
  v.strictObject({ ...sendEntries, idempotencyKey: v.optional(idempotencyKey) }),
);
export type BatchItem = v.InferOutput<typeof batchItem>;

/** Items are checked one by one by the service, so that a bad item fails alone. */
export const batchBody = v.strictObject({
  emails: v.pipe(
    v.array(v.pipe(v.unknown(), v.description('A send body (as POST /emails/send) plus an optional idempotencyKey'))),
    v.minLength(1),
    v.maxLength(MAX_BATCH),
  ),
});

export const sendResult = v.object({
  projectId: uuid,
  projectSlug: v.string(),
  id: uuid,
  kind: v.picklist(['template', 'custom']),
  status: v.picklist(EMAIL_STATUSES),
  to: v.string(),
  subject: v.string(),
  deduplicated: v.boolean(),
  blocked: v.boolean(),
  blockReason: v.nullable(v.picklist(BLOCK_REASONS)),
  scheduledAt: v.nullable(v.string()),
  createdAt: v.string(),
});

export const batchResult = v.object({
  results: v.array(
    v.union([sendResult, v.object({ index: integer, error: v.object({ code: v.string(), message: v.string() }) })]),
  ),
});

export const emailRow = v.object({
  id: uuid,
  kind: v.picklist(['template', 'custom']),
  status: v.picklist(EMAIL_STATUSES),
  to: v.string(),
  cc: v.array(v.string()),
  bcc: v.array(v.string()),
  from: v.string(),
  replyTo: v.nullable(v.string()),
  subject: v.nullable(v.string()),
  templateKey: v.nullable(v.string()),
  templateVersion: v.nullable(integer),
  metadata: v.record(v.string(), v.string()),
  tracking: v.object({ opens: v.boolean(), clicks: v.boolean() }),
  blocked: v.boolean(),
  blockReason: v.nullable(v.picklist(BLOCK_REASONS)),
  scheduledAt: v.nullable(v.string()),
  sentAt: v.nullable(v.string()),
  deliveredAt: v.nullable(v.string()),
  /** From SES's engagement events (sends with tracking): the first open and click, and how many. */
  openedAt: v.nullable(v.string()),
  opens: integer,
  clickedAt: v.nullable(v.string()),
  clicks: integer,
  lastClickedLink: v.nullable(v.string()),
  error: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
  captured: v.optional(v.object({ subject: v.string(), html: v.string(), text: v.string() })),
});

import { createHash } from 'node:crypto';
import { Entity } from 'electrodb';
import { entityConfig, SERVICE, ttlIn } from '../db/client.js';
import { put } from '../db/commit.js';
import { isConditionFailure } from '../db/errors.js';
import { lazy } from '../db/lazy.js';
import { tenantAttributes } from '../db/tenant-attributes.js';

/**
 * The RFC 5322 Message-IDs of a conversation's mails, sent and received: one item per Message-ID in a
 * project and environment (its conditional create is also how a redelivered inbound mail is noticed),
 * indexed by thread (a ticket id) in the order they were seen. Outbound mail reads the thread's ids
 * for `In-Reply-To` and `References`; inbound mail without a reply address finds its thread by them.
 */
export const MailMessage = lazy(
  () =>
    new Entity(
      {
        model: { entity: 'mailMessage', version: '1', service: SERVICE },
        attributes: {
          ...tenantAttributes,
          messageId: { type: 'string', required: true, readOnly: true },
          threadId: { type: 'string', required: true, readOnly: true },
          direction: { type: ['in', 'out'] as const, required: true, readOnly: true },
          /** A received mail's sender: another sender's mail under the same Message-ID is another mail. */
          sender: { type: 'string', readOnly: true },
          at: { type: 'string', required: true, readOnly: true },
          /** Mail is answered within months; a thread silent for a year starts over by subject. */
          expiresAt: { type: 'number', required: true, readOnly: true },
        },
        indexes: {
          byMessageId: {
            pk: { field: 'pk', composite: ['projectId', 'env', 'messageId'] },
            sk: { field: 'sk', composite: [] },
          },
          byThread: {
            index: 'gsi1',
            pk: { field: 'gsi1pk', composite: ['projectId', 'env', 'threadId'] },
            sk: { field: 'gsi1sk', composite: ['at', 'messageId'] },
          },
        },
      },
      entityConfig(),
    ),
);

type Tenant = { projectId: string; env: 'live' | 'sandbox' };
const KEEP_SECONDS = 365 * 86_400;
/** References carried by a mail: the thread's first id and its latest ones (RFC 5322 suggests trimming the middle). */
const REFERENCES_KEPT = 20;

/** `<id@host>` as written in headers; bare ids are wrapped, anything else is not a Message-ID. */
export function normalizeMessageId(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const id = trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed : `<${trimmed}>`;
  return /^<[^<>\s@]+@[^<>\s@]+>$/.test(id) && id.length <= 500 ? id : undefined;
}

const record = (tenant: Tenant, threadId: string, messageId: string, direction: 'in' | 'out', sender?: string) =>
  MailMessage.create({
    ...tenant,
    messageId,
    threadId,
    direction,
    ...(sender ? { sender } : {}),
    at: new Date().toISOString(),
    expiresAt: ttlIn(KEEP_SECONDS),
  });

/**
 * A received mail's record as an item of the transaction that adds its message: refused when the
 * Message-ID was recorded before, so the same mail delivered twice adds one message.
 */
export const receivedMailItem = (tenant: Tenant, threadId: string, messageId: string, sender: string) =>
  put(record(tenant, threadId, messageId, 'in', sender));

/**
 * The id a received mail is recorded under: its Message-ID, unless that id already names a mail this
 * one cannot be a redelivery of (one the service sent, or one from another sender: a mailer that reuses
 * its ids, or a copied id), which would drop it as a duplicate. Then an id derived from the sender and
 * the Message-ID, the same on every redelivery of this mail.
 */
export async function receivedMessageId(tenant: Tenant, messageId: string, sender: string, domain: string) {
  const { data } = await MailMessage.get({ ...tenant, messageId }).go();
  const another = data !== null && (data.direction === 'out' || (data.sender !== undefined && data.sender !== sender));
  if (!another) return messageId;
  return `<${createHash('sha256').update(`${sender}\n${messageId}`).digest('hex').slice(0, 40)}@${domain}>`;
}

/** Records a sent mail of the thread (its Message-ID as the mail service gave it); a repeat is harmless. */
export async function recordSentMail(tenant: Tenant, threadId: string, messageId: string): Promise<void> {
  try {
    await record(tenant, threadId, messageId, 'out').go({ response: 'none' });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/** The thread's Message-IDs for a new mail's `References`, oldest first (the first one and the latest ones). */
export async function threadReferences(tenant: Tenant, threadId: string): Promise<string[]> {
  const [first, latest] = await Promise.all([
    MailMessage.query.byThread({ ...tenant, threadId }).go({ limit: 1 }),
    MailMessage.query.byThread({ ...tenant, threadId }).go({ order: 'desc', limit: REFERENCES_KEPT - 1 }),
  ]);
  const ids = [...first.data, ...latest.data.reverse()].map((m) => m.messageId);
  return [...new Set(ids)];
}

/** The thread root id our mails carry in `References` (threadHeaders): `<thread.<threadId>@<domain>>`. */
const rootId = (threadId: string, domain: string) => `<thread.${threadId}@${domain}>`;
const ROOT_PREFIX = '<thread.';

/** The thread a root id of ours names (a client that answers with `In-Reply-To` our root only). */
function threadOfRoot(messageId: string, domain: string): string | undefined {
  const suffix = `@${domain}>`;
  if (!messageId.startsWith(ROOT_PREFIX) || !messageId.endsWith(suffix)) return undefined;
  const threadId = messageId.slice(ROOT_PREFIX.length, -suffix.length);
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(threadId) ? threadId : undefined;
}

/**
 * The thread one of these Message-IDs belongs to (the latest named first), if any: a recorded mail of
 * the tenant, or the root id of one of this service's threads (on the mail domain `domain`). The
 * caller still finds the thread's ticket in the tenant, so a root naming another tenant's ticket finds none.
 */
export async function threadOfMessages(
  tenant: Tenant,
  messageIds: string[],
  domain: string,
): Promise<string | undefined> {
  for (const messageId of [...messageIds].reverse().slice(0, REFERENCES_KEPT)) {
    const root = threadOfRoot(messageId, domain);
    if (root) return root;
    const { data } = await MailMessage.get({ ...tenant, messageId }).go();
    if (data) return data.threadId;
  }
  return undefined;
}

/**
 * The threading headers of a new mail in the thread: `In-Reply-To` the latest mail seen, `References`
 * a root of the thread's own (so mail clients group the thread's mails before any answer) and the
 * thread's Message-IDs.
 */
export async function threadHeaders(tenant: Tenant, threadId: string, domain: string): Promise<Record<string, string>> {
  const ids = await threadReferences(tenant, threadId);
  const root = rootId(threadId, domain);
  const latest = ids.at(-1);
  return { ...(latest ? { 'In-Reply-To': latest } : {}), References: [root, ...ids].join(' ') };
}

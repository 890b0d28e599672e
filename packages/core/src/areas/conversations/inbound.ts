import * as v from 'valibot';
import { tenantOfProject } from '../../identity/tenant.js';
import { env } from '../../kernel/config.js';
import { Problem } from '../../kernel/errors/problem.js';
import { logger } from '../../kernel/logger.js';
import { bareAddress } from '../../kernel/mail/mailbox.js';
import { parseRecipient, type Recipient } from '../../kernel/mail/reply-address.js';
import {
  normalizeMessageId,
  receivedMailItem,
  receivedMessageId,
  threadOfMessages,
} from '../../kernel/mail/threads.js';
import { must } from '../../kernel/must.js';
import { getObjectBytes } from '../../kernel/ports/blob-store.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { customerEmail } from '../customers/schemas.js';
import { createTicket, DuplicateTicket } from '../tickets/create.js';
import { Ticket } from '../tickets/entities.js';
import { currentTicket, isCustomerOf, ticketByNumber } from '../tickets/merge.js';
import { DuplicateMessage, postMessage } from '../tickets/messages.js';
import type { TicketItem } from '../tickets/present.js';
import { senderVerdict, type Verdict } from './authentication.js';
import { automaticReason } from './automatic.js';
import type { ReceivedMail } from './queue.js';
import { type ReadMail, readMail } from './read-mail.js';
import { MAX_INBOUND_BYTES } from './values.js';

/**
 * The inbound consumer (docs/decisions.md, Conversations): one received mail, stored raw in the
 * bucket by SES (or the local SMTP stand-in), becomes a customer message on its ticket or a new
 * ticket. Mail that must not become a message (automatic mail, a spam or virus verdict, our own
 * mail coming back, an address that is not ours) is dropped with a log line: it is never retried
 * and never answered.
 */
export async function receiveMail(notification: ReceivedMail): Promise<void> {
  const { receipt, mail: sesMail } = notification;
  const drop = (reason: string, extra: Record<string, unknown> = {}) =>
    logger.info('Inbound mail dropped', { reason, sesMessageId: sesMail.messageId, ...extra });

  if (receipt.spamVerdict?.status === 'FAIL' || receipt.virusVerdict?.status === 'FAIL')
    return drop('spam or virus verdict');
  const domain = env.inboundDomain;
  if (!domain) return drop('this stage receives no mail (no INBOUND_DOMAIN)');
  const targets = receipt.recipients
    .map((address) => parseRecipient(address, domain))
    .filter((r): r is Recipient => r !== undefined);
  // One delivery per project and environment addressed (a mail to two projects opens a ticket in each);
  // within one, a reply address names its ticket and wins over the project address.
  const byProject = new Map<string, Recipient>();
  for (const t of targets) {
    const key = `${t.projectId}#${t.env}`;
    if (!byProject.has(key) || (t.kind === 'ticket' && byProject.get(key)?.kind !== 'ticket')) byProject.set(key, t);
  }
  if (byProject.size === 0) return drop('no recipient of ours (unknown address or a token that does not verify)');

  const raw = await getObjectBytes(receipt.action.objectKey);
  if (!raw) return drop('the stored mail is gone', { objectKey: receipt.action.objectKey });
  if (raw.length > MAX_INBOUND_BYTES) return drop('larger than the inbound limit', { bytes: raw.length });
  // A mail the parser cannot read (MIME nested past its limit) fails the same way on every retry.
  const mail = await readMail(raw).catch((err: Error) => err);
  if (mail instanceof Error) return drop('unreadable MIME', { error: mail.message.slice(0, 200) });
  const automatic = automaticReason(mail);
  if (automatic) return drop(automatic);
  if (!mail.from) return drop('no sender');
  // A customer is who the API could have created: an address it would refuse (too long, non-ASCII) is none.
  if (!v.is(customerEmail, mail.from.address)) return drop('a sender address the API does not accept');
  // In turn: a failure retries the whole mail, and each project's delivery is recorded once (its Message-ID item).
  const from = mail.from;
  for (const target of byProject.values()) await deliver(notification, target, { ...mail, from }, drop);
}

/** The mail's delivery to one project: a customer message on its ticket, or a new ticket. */
async function deliver(
  { receipt, mail: sesMail }: ReceivedMail,
  target: Recipient,
  mail: SentMail,
  drop: (reason: string, extra?: Record<string, unknown>) => void,
) {
  const domain = must(env.inboundDomain, 'the inbound domain');
  const ctx = await tenantOfProject(target.projectId, target.env);
  if (!ctx) return drop('unknown project', { projectId: target.projectId });
  if (isOurs(ctx, domain, mail.from.address)) return drop('our own mail came back (a loop)');
  const given = normalizeMessageId(mail.messageId) ?? `<${sesMail.messageId}@${domain}>`;
  const recordedAs = () => receivedMessageId(ctx, given, mail.from.address, domain);

  const ticket =
    target.kind === 'ticket' ? await ticketByNumber(ctx, target.ticketNumber) : await ticketByThread(ctx, mail);
  const verdict = senderVerdict(receipt, sesMail.source, mail);
  const theirs = ticket !== undefined && isCustomerOf(ticket, mail.from.address);
  if (ticket && theirs && !verdict.verified) {
    // Anyone can write the customer's From: an unverified mail never enters their thread. It is kept as
    // a ticket of its own, tagged for the team, and names no ticket (nothing confirms it belongs there).
    logger.warn('Inbound mail not joined: its sender is not verified', {
      reason: verdict.why,
      ticketId: ticket.ticketId,
      sesMessageId: sesMail.messageId,
    });
  }
  const write = (messageId: string) =>
    ticket && theirs && verdict.verified && ticket.status !== 'closed'
      ? answer(ctx, ticket, mail, messageId)
      : // A closed ticket's answer continues in a new ticket; a stranger holding a reply address (a
        // forwarded mail) starts their own conversation rather than joining the customer's.
        open(
          ctx,
          mail,
          messageId,
          ticket?.status === 'closed' && theirs && verdict.verified ? ticket.ticketId : undefined,
          verdict,
        );
  // Refused as a duplicate under its Message-ID: a redelivery, unless the id names another sender's mail
  // (recorded meanwhile by a concurrent delivery), which is then recorded under its own derived id.
  const first = await recordedAs();
  if ((await write(first)) === 'duplicate' && first === given) {
    const again = await recordedAs();
    if (again !== given) await write(again);
  }
}

/** Mail from the inbound domain or from a sender this project's mail goes out from. */
function isOurs(ctx: TenantContext, domain: string, address: string) {
  const senders = [env.defaultSender, ctx.project.senderEmail]
    .filter((s): s is string => s !== undefined)
    .map(bareAddress);
  return address.endsWith(`@${domain}`) || senders.includes(address);
}

/**
 * A mail to the project's address that answers one of a ticket's mails (In-Reply-To, References),
 * followed through merges like a reply address (tickets/merge.ts).
 */
async function ticketByThread(ctx: TenantContext, mail: ReadMail): Promise<TicketItem | undefined> {
  const threadId = mail.references.length ? await threadOfMessages(ctx, mail.references, env.mailDomain) : undefined;
  if (!threadId) return undefined;
  const { data } = await Ticket.get({ projectId: ctx.projectId, env: ctx.env, ticketId: threadId }).go();
  return currentTicket(ctx, data ?? undefined);
}

type SentMail = ReadMail & { from: NonNullable<ReadMail['from']> };

async function answer(ctx: TenantContext, ticket: TicketItem, mail: SentMail, messageId: string) {
  try {
    await withinStorage(mail, (attachments, body) =>
      postMessage(ctx, ticket.ticketId, {
        body,
        senderType: 'customer',
        attachments,
        ...(mail.original ? { original: mail.original } : {}),
        once: receivedMailItem(ctx, ticket.ticketId, messageId, mail.from.address),
      }),
    );
  } catch (err) {
    if (!(err instanceof DuplicateMessage)) throw err;
    return 'duplicate';
  }
}

/** The tag a ticket opened by mail from an unverified sender carries (docs/decisions.md, Conversations). */
export const UNVERIFIED_TAG = 'unverified-sender';

async function open(
  ctx: TenantContext,
  mail: ReadMail,
  messageId: string,
  followUpOf: string | undefined,
  verdict: Verdict,
) {
  const from = must(mail.from, 'the sender of a mail that opens a ticket');
  try {
    await withinStorage(mail, (attachments, body) =>
      createTicket(ctx, {
        subject: mail.subject,
        body,
        customer: { email: from.address, ...(from.name ? { name: from.name } : {}) },
        attachments,
        ...(mail.original ? { original: mail.original } : {}),
        ...(followUpOf ? { followUpOf } : {}),
        ...(verdict.verified ? {} : { tags: [UNVERIFIED_TAG] }),
        once: (ticketId) => receivedMailItem(ctx, ticketId, messageId, from.address),
        source: 'email',
      }),
    );
  } catch (err) {
    if (!(err instanceof DuplicateTicket)) throw err;
    return 'duplicate';
  }
}

/**
 * Runs the write with the mail's attachments; when the account's storage allowance is spent, the
 * message is kept without them (its text says so) rather than lost.
 */
async function withinStorage<T>(
  mail: ReadMail,
  write: (attachments: ReadMail['attachments'], body: string) => Promise<T>,
): Promise<T> {
  try {
    return await write(mail.attachments, mail.body);
  } catch (err) {
    if (!(err instanceof Problem) || err.code !== 'plan.storage_limit' || mail.attachments.length === 0) throw err;
    const names = mail.attachments.map((a) => a.fileName).join(', ');
    return write([], `${mail.body}\n\n[Not kept, the account's storage is full: ${names}]`.slice(0, MAX_BODY));
  }
}

const MAX_BODY = 10_000;

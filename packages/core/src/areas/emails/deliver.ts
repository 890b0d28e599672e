import { releaseQuota } from '../../identity/quota.js';
import { env } from '../../kernel/config.js';
import { commit, update, type WriteItem } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { Problem } from '../../kernel/errors/problem.js';
import { bareAddress } from '../../kernel/mail/mailbox.js';
import { recordSentMail, threadHeaders } from '../../kernel/mail/threads.js';
import { must } from '../../kernel/must.js';
import { isPermanentSesError, sendViaSes, sesMessageIdHeader } from '../../kernel/ports/email-sender.js';
import { outboxRecord, putOutbox } from '../../kernel/ports/outbox.js';
import type { RenderedEmail } from '../templates/render.js';
import { type EventSource, eventItem } from '../webhooks/emit.js';
import { countDay } from './day-stats.js';
import { EmailContent, EmailLog } from './entities.js';
import type { EmailRow } from './present.js';
import type { DeliveryMessage, SesEvent } from './queue.js';
import { sesEventsQueue } from './queue.js';
import type { EmailStatus } from './schemas.js';
import { keepSentCopy } from './sent-copy.js';
import { sesTags } from './ses-events.js';
import { suppressedAmong } from './suppression.js';
import { DELIVERY_SECONDS } from './values.js';

/** A claim older than the queue's visibility timeout belongs to a consumer that died: SQS has redelivered. */
const STALE_CLAIM_MS = DELIVERY_SECONDS * 1000;

type Key = { projectId: string; env: 'live' | 'sandbox'; emailId: string };
type Finish = Partial<
  Pick<
    EmailRow,
    | 'subject'
    | 'templateVersion'
    | 'sentAt'
    | 'captured'
    | 'error'
    | 'sesMessageId'
    | 'blocked'
    | 'blockReason'
    | 'threadHeaders'
  >
>;

/**
 * Another consumer claimed the send moments ago: it may still be sending, or it died (a crash, a
 * restarted stack). The message goes back to SQS, which hands it out again after its visibility
 * timeout, when a dead consumer's claim has gone stale and can be taken over. Dropping it instead
 * would lose the mail of a consumer that died.
 */
export class SendInProgress extends Error {
  constructor(emailId: string) {
    super(`Email ${emailId} is being sent by another consumer; retry after its claim expires`);
    this.name = 'SendInProgress';
  }
}

/**
 * Moves a queued (or scheduled, or abandoned) row to `sending`; undefined when there is nothing to send
 * (the row moved on, or SES already accepted it for a consumer that died: the row is finished as sent);
 * throws SendInProgress while another consumer's claim is fresh.
 */
async function claim(key: Key, source: EventSource): Promise<EmailRow | undefined> {
  const now = Date.now();
  const stale = now - STALE_CLAIM_MS;
  try {
    const { data } = await EmailLog.patch(key)
      .set({ status: 'sending', claimedAt: now })
      .where(
        (a, op) =>
          `${op.eq(a.status, 'queued')} OR ${op.eq(a.status, 'scheduled')} OR (${op.eq(a.status, 'sending')} AND ${op.lt(a.claimedAt, stale)} AND ${op.notExists(a.sesAcceptedId)})`,
      )
      .go({ response: 'all_new' });
    return data as EmailRow;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const { data: current } = await EmailLog.get(key).go();
    if (current?.status !== 'sending') return undefined;
    if (!current.sesAcceptedId || (current.claimedAt ?? 0) >= stale) throw new SendInProgress(key.emailId);
    await finish(key, 'sent', { sesMessageId: current.sesAcceptedId, sentAt: new Date(now).toISOString() }, [
      eventItem(source, 'email.sent', { email: eventEmail(current), sesMessageId: current.sesAcceptedId }),
      countDay(key, 'sent'),
    ]);
    return undefined;
  }
}

/**
 * The row's outcome, committed with its catalog event when it has one (email.sent, email.failed,
 * email.suppressed): a redelivered message finds the row moved on and adds neither again.
 */
async function finish(key: Key, status: EmailStatus, fields: Finish, event?: WriteItem | WriteItem[]) {
  const row = update(
    EmailLog.patch(key)
      .set({ status, ...fields })
      .where((a, op) => op.eq(a.status, 'sending')),
  );
  await commit({
    items: () => ({ row, event }),
    refused: () => 'stop',
    exhausted: () => new Error(`Recording the outcome of email ${key.emailId} kept colliding`),
  });
}

/** The email as its events name it. */
const eventEmail = (row: EmailRow, subject?: string | null) => ({
  id: row.emailId,
  to: row.to,
  subject: subject ?? row.subject ?? null,
  templateKey: row.templateKey ?? null,
});

/** Local stack only: SES's mailbox simulator addresses produce the events real SES would publish. */
const SIMULATOR: Record<string, 'Bounce' | 'Complaint'> = {
  'bounce@simulator.amazonses.com': 'Bounce',
  'complaint@simulator.amazonses.com': 'Complaint',
};

async function simulateSesEvents(recipients: string[], tags: Record<string, string>, messageId: string) {
  const mail = { messageId, tags: Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, [v]])) };
  for (const type of ['Bounce', 'Complaint'] as const) {
    const hit = recipients
      .filter((r) => SIMULATOR[bareAddress(r)] === type)
      .map((r) => ({ emailAddress: bareAddress(r) }));
    if (hit.length === 0) continue;
    const event: SesEvent =
      type === 'Bounce'
        ? { eventType: type, mail, bounce: { bounceType: 'Permanent', bouncedRecipients: hit } }
        : { eventType: type, mail, complaint: { complainedRecipients: hit } };
    // SES's part, played locally: its event is a message of the outbox like any other.
    await putOutbox([outboxRecord(sesEventsQueue, event)]);
  }
}

/** What the send renders from: its content item, or the row itself for a send accepted before the split. */
async function contentOf(key: Key, row: EmailRow): Promise<{ variables?: string; body?: string; layout?: string }> {
  if (row.body !== undefined || row.variables !== undefined) return row;
  return (await EmailContent.get(key).go()).data ?? {};
}

/**
 * The email consumer: claims the row, renders it, re-checks suppression, then sends through SES
 * (live) or stores the rendered message as `captured` (sandbox). Redelivery of a message whose row
 * has moved on does nothing. A send that cannot succeed (template gone, SES refusal) ends `failed`
 * and gives its quota unit back; anything else is thrown for SQS to retry.
 */
export async function deliverEmail({ ctx, emailId }: DeliveryMessage) {
  const key: Key = { projectId: ctx.projectId, env: ctx.env, emailId };
  const source = { accountId: ctx.accountId, projectId: ctx.projectId, env: ctx.env };
  const row = await claim(key, source);
  if (!row) return;
  const giveBack = () => (row.quotaCounted ? releaseQuota(ctx, 'emails', 1) : Promise.resolve());

  try {
    let rendered: RenderedEmail;
    const given = await contentOf(key, row);
    try {
      rendered = await (await import('../templates/render.js')).renderEmail(
        ctx,
        row.kind === 'template'
          ? {
              templateKey: must(row.templateKey, 'the template of a template send'),
              variables: JSON.parse(given.variables ?? '{}') as Record<string, unknown>,
              // Render the version recorded when the send was accepted, not one imported since.
              ...(row.templateVersion !== undefined && row.templateVersion !== null
                ? { version: row.templateVersion }
                : {}),
            }
          : { subject: row.subject ?? '', body: given.body ?? '', ...(given.layout ? { layout: given.layout } : {}) },
      );
    } catch (err) {
      if (!(err instanceof Problem) || err.status >= 500) throw err;
      await finish(
        key,
        'failed',
        { error: err.message },
        eventItem(source, 'email.failed', { email: eventEmail(row), error: err.message }),
      );
      return giveBack();
    }
    const content = { subject: rendered.subject, templateVersion: rendered.templateVersion ?? row.templateVersion };

    const suppressed = await suppressedAmong(key, [row.to, ...row.cc, ...row.bcc]);
    const toReason = suppressed.get(bareAddress(row.to));
    if (toReason) {
      await finish(
        key,
        'blocked',
        { ...content, blocked: true, blockReason: toReason },
        eventItem(source, 'email.suppressed', {
          email: eventEmail(row, rendered.subject),
          recipient: bareAddress(row.to),
          reason: toReason,
        }),
      );
      return giveBack();
    }
    const keep = (list: string[]) => list.filter((a) => !suppressed.has(bareAddress(a)));

    // A ticket's mails answer each other (In-Reply-To, References): see mail/threads.ts.
    const threading = row.threadId ? await threadHeaders(key, row.threadId, env.mailDomain) : undefined;
    if (ctx.env === 'sandbox') {
      await finish(key, 'captured', {
        ...content,
        ...(threading ? { threadHeaders: threading } : {}),
        captured: { subject: rendered.subject, html: rendered.html, text: rendered.text },
      });
      return;
    }

    const tags = sesTags({ accountId: ctx.accountId, ...key });
    const cc = keep(row.cc);
    const bcc = keep(row.bcc);
    let messageId: string;
    try {
      messageId = await sendViaSes({
        from: row.from,
        to: row.to,
        cc,
        bcc,
        replyTo: row.replyTo,
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        headers: { ...((row.headers as Record<string, string> | undefined) ?? {}), ...threading },
        tags,
        tracking: [...(row.trackOpens ? (['opens'] as const) : []), ...(row.trackClicks ? (['clicks'] as const) : [])],
      });
    } catch (err) {
      if (!isPermanentSesError(err)) throw err;
      const error = `SES refused the message: ${(err as Error).message}`;
      await finish(
        key,
        'failed',
        { ...content, error },
        eventItem(source, 'email.failed', { email: eventEmail(row, rendered.subject), error }),
      );
      return giveBack();
    }
    await finish(
      key,
      'sent',
      {
        ...content,
        sentAt: new Date().toISOString(),
        sesMessageId: messageId,
        ...(threading ? { threadHeaders: threading } : {}),
      },
      [
        eventItem(source, 'email.sent', { email: eventEmail(row, rendered.subject), sesMessageId: messageId }),
        countDay(key, 'sent'),
      ],
    );
    if (row.threadId) await recordSentMail(key, row.threadId, await sesMessageIdHeader(messageId));
    await keepSentCopy(key, rendered);
    if (env.stage === 'local') await simulateSesEvents([row.to, ...cc, ...bcc], tags, messageId);
  } catch (err) {
    // Hand the row back so the redelivered message can claim it at once.
    await EmailLog.patch(key)
      .set({ status: row.scheduledAt ? 'scheduled' : 'queued' })
      .remove(['claimedAt'])
      .where((a, op) => op.eq(a.status, 'sending'))
      .go()
      .catch(() => undefined);
    throw err;
  }
}

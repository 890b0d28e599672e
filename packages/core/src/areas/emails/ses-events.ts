import { createHash } from 'node:crypto';
import { commit, update, type WriteItem } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { logger } from '../../kernel/logger.js';
import type { Environment } from '../../kernel/tenant.js';
import { eventItem } from '../webhooks/emit.js';
import { countDay } from './day-stats.js';
import { EmailLog } from './entities.js';
import type { SesEvent } from './queue.js';
import { suppress } from './suppression.js';

/** The parts of an SES event (configuration set event publishing) this service reads (queues/messages.ts). */

/** The tags the email consumer puts on every SES send. */
export const sesTags = (scope: { accountId: string; projectId: string; env: Environment; emailId: string }) => ({
  accountId: scope.accountId,
  projectId: scope.projectId,
  env: scope.env,
  emailId: scope.emailId,
});

const tag = (event: SesEvent, name: string) => event.mail?.tags?.[name]?.[0];

/**
 * SES accepted the mail (its Send event, or a Delivery): a row still `sending` keeps SES's id, so a
 * consumer taking over the claim of one that died after SES answered finishes it instead of sending
 * it twice (emails/deliver.ts, claim). SendEmail takes no idempotency key; SES's own events close the gap.
 */
async function noteAccepted(key: { projectId: string; env: Environment; emailId: string }, messageId?: string) {
  if (!messageId) return;
  await EmailLog.patch(key)
    .set({ sesAcceptedId: messageId })
    .where((a, op) => op.eq(a.status, 'sending'))
    .go()
    .catch((err: unknown) => {
      if (!isConditionFailure(err)) throw err;
    });
}

type Key = { projectId: string; env: Environment; emailId: string };
type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof EmailLog.get>['go']>>['data']>;

/** The email as its events name it. */
const eventEmail = (row: Row) => ({
  id: row.emailId,
  to: row.to,
  subject: row.subject ?? null,
  templateKey: row.templateKey ?? null,
});

/**
 * A row change and the events it raises, in one transaction; a row change refused by its condition
 * (an earlier delivery of the same SES event made it) raises nothing.
 */
const changeWithEvents = (row: WriteItem, events: WriteItem[], emailId: string) =>
  commit({
    items: () => ({ row, events }),
    refused: () => 'stop',
    exhausted: () => new Error(`SES event for email ${emailId} kept colliding`),
  });

/**
 * What SES reports after a send (configuration-set event publishing), each on the email's log row and
 * as its catalog event: Send and Delivery mark a `sending` row accepted (a consumer that died after
 * SES answered must not send again); Delivery moves `sent` to `delivered` (email.delivered); a
 * DeliveryDelay raises email.delivery_delayed; a permanent Bounce or a Complaint suppresses the
 * recipients and marks the row (email.bounced, email.complained per recipient; transient bounces
 * change nothing); Reject and Rendering Failure mark it `failed` (email.failed); Open and Click count
 * on the row and raise email.opened / email.clicked. Safe to run twice: row changes are conditional,
 * and an event raised for a repeatable SES event (open, click, delay) carries an id derived from it,
 * so a redelivered SES event writes the same outbox item, which the relay does not take twice.
 */
export async function handleSesEvent(event: SesEvent) {
  const type = event.eventType ?? event.notificationType;
  const accountId = tag(event, 'accountId');
  const projectId = tag(event, 'projectId');
  const env = tag(event, 'env') as Environment | undefined;
  const emailId = tag(event, 'emailId');
  if (!accountId || !projectId || !emailId || (env !== 'live' && env !== 'sandbox')) {
    logger.warn("SES event without this service's tags; ignored", { type, messageId: event.mail?.messageId });
    return;
  }
  const key: Key = { projectId, env, emailId };
  const source = { accountId, projectId, env };

  if (type === 'Send' || type === 'Delivery') await noteAccepted(key, event.mail?.messageId);
  if (type === 'Send') return;
  const { data: row } = await EmailLog.get(key).go();
  if (!row) return;
  const email = eventEmail(row);
  // Repeatable events get an id of their own occurrence: SES's message id, the type and its time.
  const occurrence = (at: string | undefined) =>
    createHash('sha256')
      .update(`${event.mail?.messageId}|${type}|${at ?? ''}`)
      .digest('hex')
      .slice(0, 32);

  switch (type) {
    case 'Delivery': {
      const deliveredAt = event.delivery?.timestamp ?? new Date().toISOString();
      return changeWithEvents(
        update(
          EmailLog.patch(key)
            .set({ status: 'delivered', deliveredAt })
            .where((a, op) => op.eq(a.status, 'sent')),
        ),
        [
          eventItem(source, 'email.delivered', { email, recipients: event.delivery?.recipients ?? [row.to] }),
          countDay(key, 'delivered', deliveredAt),
        ],
        emailId,
      ).catch(ignoreRefusal);
    }
    case 'DeliveryDelay': {
      const at = event.deliveryDelay?.timestamp;
      await commit({
        items: () => ({
          event: eventItem(
            source,
            'email.delivery_delayed',
            { email, reason: event.deliveryDelay?.delayType ?? null },
            { id: occurrence(at) },
          ),
        }),
        exhausted: () => new Error(`SES delay event for email ${emailId} kept colliding`),
      });
      return;
    }
    case 'Reject':
    case 'Rendering Failure': {
      const error =
        type === 'Reject'
          ? `SES rejected the message: ${event.reject?.reason ?? 'no reason given'}`
          : `SES could not render the message: ${event.failure?.errorMessage ?? 'no reason given'}`;
      return changeWithEvents(
        update(
          EmailLog.patch(key)
            .set({ status: 'failed', error })
            .where((a, op) => `${op.eq(a.status, 'sent')} OR ${op.eq(a.status, 'sending')}`),
        ),
        [eventItem(source, 'email.failed', { email, error })],
        emailId,
      ).catch(ignoreRefusal);
    }
    case 'Open':
    case 'Click': {
      const at = (type === 'Open' ? event.open?.timestamp : event.click?.timestamp) ?? new Date().toISOString();
      const link = event.click?.link ?? '';
      const counted =
        type === 'Open'
          ? EmailLog.patch(key)
              .add({ opens: 1 })
              .set({ openedAt: row.openedAt ?? at })
          : EmailLog.patch(key)
              .add({ clicks: 1 })
              .set({ clickedAt: row.clickedAt ?? at, lastClickedLink: link });
      await commit({
        items: () => ({
          row: update(counted),
          day: countDay(key, type === 'Open' ? 'opened' : 'clicked', at),
          event:
            type === 'Open'
              ? eventItem(source, 'email.opened', { email, openedAt: at }, { id: occurrence(at) })
              : eventItem(source, 'email.clicked', { email, link, clickedAt: at }, { id: occurrence(`${at}|${link}`) }),
        }),
        exhausted: () => new Error(`SES engagement event for email ${emailId} kept colliding`),
      });
      return;
    }
  }

  const outcome =
    type === 'Bounce' && event.bounce?.bounceType === 'Permanent'
      ? { status: 'bounced' as const, recipients: event.bounce.bouncedRecipients ?? [] }
      : type === 'Complaint'
        ? { status: 'complained' as const, recipients: event.complaint?.complainedRecipients ?? [] }
        : undefined;
  if (!outcome) return;

  const recipients = outcome.recipients.map((r) => r.emailAddress);
  for (const recipient of recipients) await suppress(key, recipient, outcome.status, emailId);
  // The status and its events commit together; a second run of the same event is refused and adds none.
  await changeWithEvents(
    update(
      EmailLog.patch(key)
        .set({ status: outcome.status })
        .where((a, op) => `${op.ne(a.status, 'bounced')} AND ${op.ne(a.status, 'complained')}`),
    ),
    [
      ...recipients.map((recipient) =>
        outcome.status === 'bounced'
          ? eventItem(source, 'email.bounced', { email, type: 'bounced', recipient, suppressed: true })
          : eventItem(source, 'email.complained', { email, recipient, suppressed: true }),
      ),
      countDay(key, outcome.status),
    ],
    emailId,
  );
}

/** changeWithEvents stops (answers false) on a refused row change; nothing else to ignore. */
const ignoreRefusal = () => undefined;

import { commit, update } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { logger } from '../../kernel/logger.js';
import type { Environment } from '../../kernel/tenant.js';
import { eventItem } from '../webhooks/emit.js';
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

/**
 * Bounces and complaints: the recipients are suppressed in the project+environment, the row becomes
 * `bounced` or `complained`, and `email.bounced` fires once per recipient. Transient bounces (a full
 * mailbox) change nothing. Deliveries move `sent` rows to `delivered`; Send events and deliveries
 * mark a `sending` row as accepted by SES. Safe to run twice: the row
 * update is conditional and only the run that makes it fires the event.
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
  const key = { projectId, env, emailId };

  if (type === 'Send' || type === 'Delivery') await noteAccepted(key, event.mail?.messageId);
  if (type === 'Delivery') {
    await EmailLog.patch(key)
      .set({ status: 'delivered' })
      .where((a, op) => op.eq(a.status, 'sent'))
      .go()
      .catch((err: unknown) => {
        if (!isConditionFailure(err)) throw err;
      });
    return;
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
  const { data: row } = await EmailLog.get(key).go();
  if (!row) return;
  // The status and its events commit together; a second run of the same event is refused and adds none.
  await commit({
    items: () => ({
      row: update(
        EmailLog.patch(key)
          .set({ status: outcome.status })
          .where((a, op) => `${op.ne(a.status, 'bounced')} AND ${op.ne(a.status, 'complained')}`),
      ),
      events: recipients.map((recipient) =>
        eventItem({ accountId, projectId, env }, 'email.bounced', {
          email: { id: row.emailId, to: row.to, subject: row.subject ?? null, templateKey: row.templateKey ?? null },
          type: outcome.status,
          recipient,
          suppressed: true,
        }),
      ),
    }),
    refused: () => 'stop',
    exhausted: () => new Error(`SES event for email ${emailId} kept colliding`),
  });
}

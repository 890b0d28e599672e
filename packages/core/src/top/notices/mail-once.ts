import { prepareSystemEmail, type SystemEmail } from '../../areas/emails/system-send.js';
import type { EventEnvelope } from '../../areas/webhooks/queue.js';
import { env } from '../../kernel/config.js';
import { ttlIn } from '../../kernel/db/client.js';
import { commit, put } from '../../kernel/db/commit.js';
import type { TenantContext } from '../../kernel/tenant.js';

/** A notice's marker outlives any redelivery of its event (SQS keeps a message at most 14 days). */
const MARKER_TTL_SECONDS = 15 * 86_400;

/**
 * Mails a notice of an event to members, once per event: the mails commit with a marker keyed by the
 * event id, so a redelivered event mails nobody twice.
 */
export async function mailOnce(
  envelope: EventEnvelope,
  ctx: TenantContext,
  recipients: readonly string[],
  mail: Omit<SystemEmail, 'to'>,
) {
  if (recipients.length === 0) return;
  await commit({
    items: () => ({
      marker: put({
        TableName: env.tableName,
        Item: { pk: `notice#${envelope.id}`, sk: 'mail', expiresAt: ttlIn(MARKER_TTL_SECONDS) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
      mails: recipients.flatMap((to) => prepareSystemEmail(ctx, { ...mail, to }).writes),
    }),
    refused: () => 'stop',
    exhausted: () => new Error(`Mailing the notice of event ${envelope.id} kept colliding`),
  });
}

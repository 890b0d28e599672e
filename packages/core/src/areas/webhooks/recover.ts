import type { EntityItem } from 'electrodb';
import { commit, remove } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { EventName } from './catalog.js';
import type { DeliveryJob } from './deliver.js';
import { getWebhook } from './endpoints.js';
import { WebhookDeadLetter } from './entities.js';
import { webhooksQueue } from './queue.js';

type DeadLetter = EntityItem<typeof WebhookDeadLetter>;

/**
 * A dead letter back on its way: its job (the same delivery id, so the same `webhook-id`, and the
 * same payload) as an outbox item, with the dead letter removed in the same transaction, so a second
 * recovery cannot send it twice and a new failure can dead-letter it again. Its attempt numbers go on
 * from the last one; a recovered delivery that fails again is dead-lettered at once (no new retries).
 */
function requeue(ctx: TenantContext, letter: DeadLetter) {
  const job: DeliveryJob = {
    kind: 'delivery',
    deliveryId: letter.deliveryId,
    webhookId: letter.webhookId,
    accountId: ctx.accountId,
    projectId: ctx.projectId,
    env: ctx.env,
    event: letter.event as EventName,
    timestamp: letter.timestamp,
    data: JSON.parse(letter.data) as Record<string, unknown>,
    attempt: letter.attempts + 1,
  };
  return {
    letter: remove(
      WebhookDeadLetter.delete({
        projectId: ctx.projectId,
        env: ctx.env,
        webhookId: letter.webhookId,
        deliveryId: letter.deliveryId,
      }).where((a, op) => op.eq(a.attempts, letter.attempts)),
    ),
    job: outboxItem(webhooksQueue, job, { id: `job-${job.deliveryId}-${job.attempt}` }),
  };
}

async function enabledEndpoint(ctx: TenantContext, webhookId: string) {
  const endpoint = await getWebhook(ctx, webhookId);
  if (!endpoint.enabled) throw problem('webhook.disabled');
  return endpoint;
}

/**
 * POST /webhooks/{id}/recover: every dead-lettered delivery of the endpoint whose last attempt failed
 * in [since, until] is queued again (see requeue). Answers how many.
 */
export async function recoverDeliveries(
  ctx: TenantContext,
  webhookId: string,
  window: { since: string; until?: string },
) {
  await enabledEndpoint(ctx, webhookId);
  const { data } = await WebhookDeadLetter.query
    .byEndpoint({ projectId: ctx.projectId, env: ctx.env, webhookId })
    .go({ pages: 'all' });
  const since = Date.parse(window.since);
  const until = window.until ? Date.parse(window.until) : Number.POSITIVE_INFINITY;
  const letters = data.filter((d) => {
    const at = Date.parse(d.createdAt);
    return at >= since && at <= until;
  });
  let queued = 0;
  for (const letter of letters) {
    const done = await commit({
      items: () => requeue(ctx, letter),
      // Recovered by a concurrent request (or retried one by one) meanwhile: not again.
      refused: () => 'stop',
      exhausted: () => errors.conflict('The delivery'),
    });
    if (done) queued++;
  }
  return { queued, since: window.since, until: window.until ?? null };
}

/** POST /webhooks/{id}/deliveries/{deliveryId}/retry: one dead-lettered delivery, queued again. */
export async function retryDelivery(ctx: TenantContext, webhookId: string, deliveryId: string) {
  await enabledEndpoint(ctx, webhookId);
  const { data: letter } = await WebhookDeadLetter.get({
    projectId: ctx.projectId,
    env: ctx.env,
    webhookId,
    deliveryId,
  }).go();
  if (!letter) throw errors.notFound('Failed delivery');
  const done = await commit({
    items: () => requeue(ctx, letter),
    refused: () => 'stop',
    exhausted: () => errors.conflict('The delivery'),
  });
  if (!done) throw errors.notFound('Failed delivery');
  return { queued: true as const, deliveryId, attempt: letter.attempts + 1 };
}

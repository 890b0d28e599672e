import { paginate } from '../../kernel/api/list.js';
import { isExpired } from '../../kernel/db/client.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { EventName } from './catalog.js';
import { getWebhook } from './endpoints.js';
import { WebhookDelivery } from './entities.js';

/** An endpoint's delivery log, one row per attempt, newest first; `id` is the delivery (X-Service-Delivery). */
export async function listDeliveries(ctx: TenantContext, webhookId: string, page: number, limit: number) {
  await getWebhook(ctx, webhookId);
  const { data } = await WebhookDelivery.query
    .byTime({ projectId: ctx.projectId, env: ctx.env, webhookId })
    .go({ order: 'desc', pages: 'all' });
  const rows = data
    .filter((d) => !isExpired(d.expiresAt))
    .map((d) => ({
      id: d.deliveryId,
      event: d.event as EventName,
      attempt: d.attempt,
      statusCode: d.statusCode ?? null,
      durationMs: d.durationMs,
      error: d.error ?? null,
      createdAt: d.createdAt,
      nextRetryAt: d.nextRetryAt ?? null,
      signedWith: d.signedWith ?? [],
    }));
  const { rows: deliveries, ...rest } = paginate(rows, page, limit);
  return { deliveries, ...rest };
}

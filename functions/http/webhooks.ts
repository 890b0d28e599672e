import { webhookRoutes } from '@helpdesk/core/areas/webhooks/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  endpoints: () => import('@helpdesk/core/areas/webhooks/endpoints'),
  deliveries: () => import('@helpdesk/core/areas/webhooks/deliveries'),
  recover: () => import('@helpdesk/core/areas/webhooks/recover'),
});

export const handler = createGroupHandler(webhookRoutes, {
  listWebhooks: async ({ ctx }) => ({ webhooks: await (await use.endpoints()).listWebhooks(ctx) }),
  createWebhook: async ({ ctx, body }) => (await use.endpoints()).createWebhook(ctx, body),
  updateWebhook: async ({ ctx, params, body }) => (await use.endpoints()).updateWebhook(ctx, params.id, body),
  deleteWebhook: async ({ ctx, params }) => (await use.endpoints()).deleteWebhook(ctx, params.id),
  // pageQuery() gives page and limit their defaults.
  listWebhookDeliveries: async ({ ctx, params, query }) =>
    (await use.deliveries()).listDeliveries(ctx, params.id, query.page, query.limit),
  testWebhook: async ({ ctx, params, body }) => (await use.endpoints()).sendTestDelivery(ctx, params.id, body.event),
  rotateWebhookSecret: async ({ ctx, params, body }) =>
    (await use.endpoints()).rotateWebhookSecret(ctx, params.id, body.overlapHours),
  recoverWebhookDeliveries: async ({ ctx, params, body }) =>
    (await use.recover()).recoverDeliveries(ctx, params.id, body),
  retryWebhookDelivery: async ({ ctx, params }) =>
    (await use.recover()).retryDelivery(ctx, params.id, params.deliveryId),
});

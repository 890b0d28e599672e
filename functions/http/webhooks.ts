import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';
import { webhookRoutes } from '@helpdesk/core/webhooks/routes';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const endpoints = onFirstCall(() => import('@helpdesk/core/webhooks/endpoints'));
const deliveries = onFirstCall(() => import('@helpdesk/core/webhooks/deliveries'));

export const handler = createGroupHandler(webhookRoutes, {
  listWebhooks: async ({ ctx }) => ({ webhooks: await (await endpoints()).listWebhooks(ctx) }),
  createWebhook: async ({ ctx, body }) => (await endpoints()).createWebhook(ctx, body),
  updateWebhook: async ({ ctx, params, body }) => (await endpoints()).updateWebhook(ctx, params.id, body),
  deleteWebhook: async ({ ctx, params }) => (await endpoints()).deleteWebhook(ctx, params.id),
  // pageQuery() gives page and limit their defaults.
  listWebhookDeliveries: async ({ ctx, params, query }) => (await deliveries()).listDeliveries(ctx, params.id, query.page!, query.limit!),
  testWebhook: async ({ ctx, params, body }) => (await endpoints()).sendTestDelivery(ctx, params.id, body.event),
  rotateWebhookSecret: async ({ ctx, params }) => (await endpoints()).rotateWebhookSecret(ctx, params.id),
});

import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { listDeliveries } from '@helpdesk/core/webhooks/deliveries';
import { createWebhook, deleteWebhook, listWebhooks, rotateWebhookSecret, sendTestDelivery, updateWebhook } from '@helpdesk/core/webhooks/endpoints';
import { webhookRoutes } from '@helpdesk/core/webhooks/routes';

export const handler = createGroupHandler(webhookRoutes, {
  listWebhooks: async ({ ctx }) => ({ webhooks: await listWebhooks(ctx) }),
  createWebhook: async ({ ctx, body }) => createWebhook(ctx, body),
  updateWebhook: async ({ ctx, params, body }) => updateWebhook(ctx, params.id, body),
  deleteWebhook: async ({ ctx, params }) => deleteWebhook(ctx, params.id),
  // pageQuery() gives page and limit their defaults.
  listWebhookDeliveries: async ({ ctx, params, query }) => listDeliveries(ctx, params.id, query.page!, query.limit!),
  testWebhook: async ({ ctx, params, body }) => sendTestDelivery(ctx, params.id, body.event),
  rotateWebhookSecret: async ({ ctx, params }) => rotateWebhookSecret(ctx, params.id),
});

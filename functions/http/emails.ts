import { emailRoutes } from '@helpdesk/core/areas/emails/routes';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  send: () => import('@helpdesk/core/areas/emails/send'),
  read: () => import('@helpdesk/core/areas/emails/read'),
  cancel: () => import('@helpdesk/core/areas/emails/cancel'),
});

export const handler = createGroupHandler(emailRoutes, {
  sendEmail: async ({ ctx, body, headers }) => {
    const { sendEmail, idempotencyKeyOf } = await use.send();
    return sendEmail(ctx, body, idempotencyKeyOf(headers));
  },
  sendEmailBatch: async ({ ctx, body }) => (await use.send()).sendBatch(ctx, body.emails),
  listEmails: async ({ ctx, query }) => (await use.read()).listEmails(ctx, query),
  getEmail: async ({ ctx, params }) => (await use.read()).getEmail(ctx, params.id),
  cancelEmail: async ({ ctx, params }) => (await use.cancel()).cancelEmail(ctx, params.id),
});

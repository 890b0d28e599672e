import { emailRoutes } from '@helpdesk/core/emails/routes';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { onFirstCall } from '@helpdesk/core/http/route';

// Each route's code loads on its first call (docs/architecture.md, One route table).
const send = onFirstCall(() => import('@helpdesk/core/emails/send'));
const read = onFirstCall(() => import('@helpdesk/core/emails/read'));
const cancel = onFirstCall(() => import('@helpdesk/core/emails/cancel'));

export const handler = createGroupHandler(emailRoutes, {
  sendEmail: async ({ ctx, body, headers }) => {
    const { sendEmail, idempotencyKeyOf } = await send();
    return sendEmail(ctx, body, idempotencyKeyOf(headers));
  },
  sendEmailBatch: async ({ ctx, body }) => (await send()).sendBatch(ctx, body.emails),
  listEmails: async ({ ctx, query }) => (await read()).listEmails(ctx, query),
  getEmail: async ({ ctx, params }) => (await read()).getEmail(ctx, params.id),
  cancelEmail: async ({ ctx, params }) => (await cancel()).cancelEmail(ctx, params.id),
});

import { cancelEmail } from '@helpdesk/core/emails/cancel';
import { getEmail, listEmails } from '@helpdesk/core/emails/read';
import { emailRoutes } from '@helpdesk/core/emails/routes';
import { sendBatch, sendEmail, idempotencyKeyOf } from '@helpdesk/core/emails/send';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';

export const handler = createGroupHandler(emailRoutes, {
  sendEmail: async ({ ctx, body, headers }) => sendEmail(ctx, body, idempotencyKeyOf(headers)),
  sendEmailBatch: async ({ ctx, body }) => sendBatch(ctx, body.emails),
  listEmails: async ({ ctx, query }) => listEmails(ctx, query),
  getEmail: async ({ ctx, params }) => getEmail(ctx, params.id),
  cancelEmail: async ({ ctx, params }) => cancelEmail(ctx, params.id),
});

import { handleWebhookMessage } from '@helpdesk/core/areas/webhooks/deliver';
import { webhooksQueue } from '@helpdesk/core/areas/webhooks/queue';
import { mailEndpointNotice } from '@helpdesk/core/top/notices/endpoint-health';
import { mailSlaNotice } from '@helpdesk/core/top/notices/sla';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/**
 * Webhooks queue consumer: events fan out to delivery jobs, jobs are attempted, and an endpoint's
 * health notice is also mailed to the account's admins. Records run side by side, so one endpoint's
 * 5 s timeout holds up nobody else in the batch; SLA warnings and breaches are mailed to the team; a failed POST is not a failed record (it is retried
 * on its own schedule), only an infrastructure error is.
 */
export const handler = consumer(webhooksQueue, {
  each: async (message) => {
    await handleWebhookMessage(message);
    if (!('kind' in message)) await Promise.all([mailEndpointNotice(message), mailSlaNotice(message)]);
  },
});

import { handleWebhookMessage } from '@helpdesk/core/areas/webhooks/deliver';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/**
 * Webhooks queue consumer: events fan out to delivery jobs, jobs are attempted. Records run side by
 * side, so one endpoint's 5 s timeout holds up nobody else in the batch; a failed POST is not a failed
 * record (it is retried on its own schedule), only an infrastructure error is.
 */
export const handler = consumer('webhooks', { each: handleWebhookMessage });

import { deliverEmail } from '@helpdesk/core/emails/deliver';
import { consumer } from '@helpdesk/core/queues/consumer';

/** Email queue consumer: each record is one send; records run side by side. */
export const handler = consumer('emails', { each: deliverEmail });

import { deliverEmail } from '@helpdesk/core/areas/emails/deliver';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** Email queue consumer: each record is one send; records run side by side. */
export const handler = consumer('emails', { each: deliverEmail });

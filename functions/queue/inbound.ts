import { receiveMail } from '@helpdesk/core/areas/conversations/inbound';
import { inboundQueue } from '@helpdesk/core/areas/conversations/queue';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** Inbound mail queue consumer (SES receipt notifications, or the local SMTP stand-in's): customer messages and new tickets. */
export const handler = consumer(inboundQueue, { each: receiveMail });

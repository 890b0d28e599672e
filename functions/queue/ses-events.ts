import { sesEventsQueue } from '@helpdesk/core/areas/emails/queue';
import { handleSesEvent } from '@helpdesk/core/areas/emails/ses-events';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** SES events queue consumer (bare events from EventBridge, or SNS-wrapped): bounces, complaints, deliveries. */
export const handler = consumer(sesEventsQueue, { each: handleSesEvent });

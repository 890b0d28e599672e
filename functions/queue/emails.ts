import { deliverEmail } from '@helpdesk/core/areas/emails/deliver';
import { emailsQueue } from '@helpdesk/core/areas/emails/queue';
import { mailSignInLinks } from '@helpdesk/core/top/console/sign-in';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** Email queue consumer: each record is one send (or a console sign-in request); records run side by side. */
export const handler = consumer(emailsQueue, {
  each: (message) => ('kind' in message ? mailSignInLinks(message) : deliverEmail(message)),
});

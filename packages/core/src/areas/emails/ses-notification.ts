import type { Environment } from '../../kernel/tenant.js';
import type { SesEvent } from './queue.js';
import { sesTags } from './ses-events.js';

export const SES_EVENT_KINDS = ['send', 'delivery', 'delay', 'bounce', 'complaint', 'reject', 'open', 'click'] as const;
export type SesEventKind = (typeof SES_EVENT_KINDS)[number];

interface Sent {
  accountId: string;
  projectId: string;
  env: Environment;
  emailId: string;
  to: string;
  sesMessageId?: string;
}

/**
 * The notification SES publishes for a sent email (configuration-set event publishing, its JSON shape:
 * `eventType`, `mail` with the send's tags, and the type's own object), for the local stack, whose SES
 * stand-in publishes none (`admin ses:event`), and tests.
 */
export function sesNotification(kind: SesEventKind, sent: Sent, options: { link?: string; at?: Date } = {}): SesEvent {
  const timestamp = (options.at ?? new Date()).toISOString();
  const tags = Object.fromEntries(Object.entries(sesTags(sent)).map(([k, v]) => [k, [v]]));
  const mail = {
    timestamp,
    messageId: sent.sesMessageId ?? `local-${sent.emailId}`,
    destination: [sent.to],
    tags,
  };
  const recipient = { emailAddress: sent.to };
  switch (kind) {
    case 'send':
      return { eventType: 'Send', mail, send: {} } as SesEvent;
    case 'delivery':
      return { eventType: 'Delivery', mail, delivery: { timestamp, recipients: [sent.to], smtpResponse: '250 OK' } };
    case 'delay':
      return {
        eventType: 'DeliveryDelay',
        mail,
        deliveryDelay: { timestamp, delayType: 'MailboxFull', delayedRecipients: [recipient] },
      };
    case 'bounce':
      return {
        eventType: 'Bounce',
        mail,
        bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [recipient], timestamp },
      };
    case 'complaint':
      return { eventType: 'Complaint', mail, complaint: { complainedRecipients: [recipient], timestamp } };
    case 'reject':
      return { eventType: 'Reject', mail, reject: { reason: 'Bad content' } };
    case 'open':
      return { eventType: 'Open', mail, open: { timestamp, userAgent: 'Mozilla/5.0', ipAddress: '192.0.2.1' } };
    case 'click':
      return {
        eventType: 'Click',
        mail,
        click: {
          timestamp,
          link: options.link ?? 'https://example.com/',
          userAgent: 'Mozilla/5.0',
          ipAddress: '192.0.2.1',
        },
      };
  }
}

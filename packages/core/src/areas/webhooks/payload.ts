import type { WebhookFormat } from './entities.js';
import type { EventName } from './values.js';

interface TicketRef {
  number?: number;
  subject?: string;
  priority?: string;
}
interface Person {
  email?: string;
  name?: string | null;
}

/** Slack-style mrkdwn treats these three as control characters. */
const esc = (value: unknown) =>
  String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

const ticketLines = (title: string, ticket: TicketRef | undefined, customer: Person | undefined) =>
  [
    `*${title} #${esc(ticket?.number)}*: ${esc(ticket?.subject)}`,
    `Customer: ${esc(customer?.email)} · Priority: ${esc(ticket?.priority)}`,
  ].join('\n');

/** The markdown line(s) a chat-format delivery carries; ticket events lead with subject, number, customer email, priority. */
// biome-ignore lint/suspicious/noExplicitAny: the event's data was validated by the queue's schema; this only formats its fields.
export function chatText(event: EventName, data: Record<string, any>): string {
  switch (event) {
    case 'ticket.created':
      return ticketLines('New ticket', data.ticket, data.customer);
    case 'ticket.resolved':
      return ticketLines('Resolved ticket', data.ticket, data.customer);
    case 'message.received': {
      const body = String(data.message?.body ?? '');
      const excerpt = body.length > 300 ? `${body.slice(0, 300)}…` : body;
      return `${ticketLines('New message on ticket', data.ticket, data.customer)}\n>${esc(excerpt).replace(/\n/g, '\n>')}`;
    }
    case 'feedback.submitted':
      return [
        `*Feedback*: ${esc(data.conversation?.subject)}`,
        `Customer: ${esc(data.customer?.email)} · Rating: ${esc(data.conversation?.rating)} · Sentiment: ${esc(data.conversation?.sentiment)}`,
        ...(data.comment ? [`>${esc(data.comment)}`] : []),
      ].join('\n');
    case 'email.bounced':
      return `*Email ${esc(data.type)}*: ${esc(data.recipient)} (${esc(data.email?.subject)}); the address is suppressed.`;
    case 'customer.created':
    case 'customer.updated':
      return `*Customer ${event === 'customer.created' ? 'created' : 'updated'}*: ${esc(data.customer?.email)}${
        data.customer?.name ? ` (${esc(data.customer.name)})` : ''
      }`;
  }
}

/** The exact bytes POSTed (and signed) for an event in an endpoint's format. */
export function deliveryBody(
  format: WebhookFormat,
  event: EventName,
  timestamp: string,
  data: Record<string, unknown>,
): string {
  if (format === 'chat') {
    return JSON.stringify({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: chatText(event, data) } }] });
  }
  return JSON.stringify({ event, timestamp, data });
}

const sampleTicket = {
  id: '00000000-0000-4000-8000-000000000001',
  number: 1,
  subject: 'Sample ticket',
  status: 'new',
  priority: 'medium',
};
const sampleCustomer = { email: 'customer@example.com', name: 'Sample Customer' };
const sampleCustomerRecord = {
  id: '00000000-0000-4000-8000-000000000002',
  ...sampleCustomer,
  externalId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/** Data for the test action's sample delivery, shaped as each event's real data. */
export const SAMPLE_DATA: Record<EventName, Record<string, unknown>> = {
  'ticket.created': { ticket: sampleTicket, customer: sampleCustomer },
  'ticket.resolved': { ticket: { ...sampleTicket, status: 'resolved' }, customer: sampleCustomer },
  'message.received': {
    ticket: { ...sampleTicket, status: 'open' },
    message: {
      id: '00000000-0000-4000-8000-000000000003',
      senderType: 'customer',
      visibility: 'public',
      body: 'This is a sample message.',
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    customer: sampleCustomer,
  },
  'feedback.submitted': {
    conversation: {
      id: '00000000-0000-4000-8000-000000000004',
      subject: 'Sample feedback',
      rating: 5,
      sentiment: 'positive',
      source: 'api',
    },
    customer: sampleCustomer,
    requestId: null,
    comment: 'Great support!',
  },
  'email.bounced': {
    email: {
      id: '00000000-0000-4000-8000-000000000005',
      to: 'bounce@example.com',
      subject: 'Sample email',
      templateKey: null,
    },
    type: 'bounced',
    recipient: 'bounce@example.com',
    suppressed: true,
  },
  'customer.created': { customer: sampleCustomerRecord },
  'customer.updated': { customer: sampleCustomerRecord },
};

import { EVENT_CATALOG, type EventName } from './catalog.js';
import type { WebhookFormat } from './entities.js';

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
    case 'message.received':
    case 'message.sent':
    case 'note.added': {
      const body = String(data.message?.body ?? '');
      const excerpt = body.length > 300 ? `${body.slice(0, 300)}…` : body;
      const title =
        event === 'note.added'
          ? 'Note on ticket'
          : event === 'message.sent'
            ? 'Reply on ticket'
            : 'New message on ticket';
      return `${ticketLines(title, data.ticket, data.customer)}\n>${esc(excerpt).replace(/\n/g, '\n>')}`;
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
    default:
      return otherText(event, data);
  }
}

/** Every other event: its name and what it is about (a ticket, a customer, an email, an issue, an endpoint). */
// biome-ignore lint/suspicious/noExplicitAny: as above.
function otherText(event: EventName, data: Record<string, any>) {
  if (data.ticket) return ticketLines(`\`${event}\` ticket`, data.ticket, data.customer);
  const about = data.customer?.email ?? data.email?.to ?? data.issue?.title ?? data.endpoint?.url ?? '';
  return `*${esc(event)}*: ${esc(about)}`;
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
  // `event` is the spec's field; `type` is the same name where Standard Webhooks receivers look for it.
  return JSON.stringify({ event, type: event, timestamp, data });
}

/** Data for the test action's sample delivery: each event's catalog example. */
export const sampleData = (event: EventName) => EVENT_CATALOG[event].example as Record<string, unknown>;

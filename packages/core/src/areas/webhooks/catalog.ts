import * as v from 'valibot';
import { alertFields } from '../../kernel/log-alert-terms.js';
import { TICKET_SOURCES } from '../../kernel/ticket-terms.js';
import { fieldValue } from '../ticket-fields/value-schema.js';

/**
 * The event catalog: every webhook event type with its description, the schema of its `data` and an
 * example. One source for the emitters' types (eventItem takes the event's data type), the delivery
 * contract test, the OpenAPI document's `webhooks`, GET /webhook-event-types and the typed client.
 */
const id = v.string();
const time = v.string();
const nullableText = v.nullable(v.string());

const ticket = v.object({
  id,
  number: v.number(),
  subject: v.string(),
  status: v.string(),
  priority: v.string(),
  /** The ticket's custom field values by key, when it holds any (GET /ticket-fields). */
  customFields: v.optional(v.record(v.string(), fieldValue)),
});
const customer = v.object({ email: v.string(), name: v.nullish(v.string()) });
const ticketEvent = { ticket, customer };
const ticketRef = v.object({ id, number: v.number() });
/** An SLA target at risk or breached; `assignedTo` is the ticket's assignee (member id), whom the team mail goes to. */
const slaEvent = v.object({ target: v.string(), policyId: id, dueAt: time, assignedTo: nullableText });
const message = v.object({
  id,
  senderType: v.string(),
  visibility: v.string(),
  body: v.string(),
  createdAt: time,
});
const customerRecord = v.looseObject({
  id,
  email: v.string(),
  name: nullableText,
  externalId: nullableText,
  createdAt: time,
  updatedAt: time,
});
const email = v.object({ id, to: v.string(), subject: nullableText, templateKey: nullableText });
const issue = v.looseObject({
  id,
  title: v.string(),
  level: v.string(),
  status: v.string(),
  count: v.number(),
  firstSeenAt: time,
  lastSeenAt: time,
});
const endpoint = v.object({ id, url: v.string() });
const change = v.object({ from: v.unknown(), to: v.unknown() });

const sampleTicket = {
  id: '00000000-0000-4000-8000-000000000001',
  number: 1,
  subject: 'Sample ticket',
  status: 'open',
  priority: 'medium',
};
const sampleCustomer = { email: 'customer@example.com', name: 'Sample Customer' };
const sampleMessage = (senderType: string, visibility: string, body: string) => ({
  id: '00000000-0000-4000-8000-000000000003',
  senderType,
  visibility,
  body,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const sampleCustomerRecord = {
  id: '00000000-0000-4000-8000-000000000002',
  ...sampleCustomer,
  externalId: null,
  phone: null,
  metadata: {},
  ticketCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const sampleEmail = {
  id: '00000000-0000-4000-8000-000000000005',
  to: 'customer@example.com',
  subject: 'Your order',
  templateKey: null,
};
const sampleIssue = {
  id: '00000000-0000-4000-8000-000000000006',
  title: 'Payment <*> failed',
  level: 'error',
  status: 'open',
  regressed: false,
  count: 3,
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T01:00:00.000Z',
};
const sampleSla = {
  target: 'firstReply',
  policyId: '00000000-0000-4000-8000-000000000009',
  dueAt: '2026-01-01T02:00:00.000Z',
  assignedTo: null,
};
const sampleSourceId = '00000000-0000-4000-8000-000000000008';
const sampleEndpoint = { id: '00000000-0000-4000-8000-000000000007', url: 'https://example.com/hooks' };

interface EventSpec<S extends v.GenericSchema> {
  /** Whom it concerns and when it fires. */
  description: string;
  data: S;
  example: v.InferInput<S>;
}
const event = <S extends v.GenericSchema>(spec: EventSpec<S>) => spec;
const bounce = v.object({ email, type: v.literal('bounced'), recipient: v.string(), suppressed: v.boolean() });

export const EVENT_CATALOG = {
  'ticket.created': event({
    description:
      'A ticket was submitted: `source` says where (`api` for the API and SDK, `email` for a received mail, `portal` for the help center and the ticket page, `split` for messages split off another ticket).',
    data: v.object({ ...ticketEvent, source: v.picklist(TICKET_SOURCES) }),
    example: { ticket: { ...sampleTicket, status: 'new' }, customer: sampleCustomer, source: 'api' },
  }),
  'ticket.updated': event({
    description: 'A ticket changed (status, priority, category or assignee); `changes` holds each changed field.',
    data: v.object({ ...ticketEvent, changes: v.record(v.string(), change) }),
    example: { ticket: sampleTicket, customer: sampleCustomer, changes: { priority: { from: 'low', to: 'medium' } } },
  }),
  'ticket.assigned': event({
    description: 'A ticket was assigned to a member, or unassigned (`to` null).',
    data: v.object({ ...ticketEvent, from: nullableText, to: nullableText }),
    example: { ticket: sampleTicket, customer: sampleCustomer, from: null, to: 'agent@example.com' },
  }),
  'ticket.status_changed': event({
    description: "A ticket's status changed, by a person or by a message (a customer answer reopens).",
    data: v.object({ ...ticketEvent, from: v.string(), to: v.string() }),
    example: { ticket: sampleTicket, customer: sampleCustomer, from: 'new', to: 'open' },
  }),
  'ticket.resolved': event({
    description: 'A ticket was marked resolved.',
    data: v.object(ticketEvent),
    example: { ticket: { ...sampleTicket, status: 'resolved' }, customer: sampleCustomer },
  }),
  'ticket.deleted': event({
    description: 'A ticket was deleted with its messages and attachments.',
    data: v.object({ ticket: v.object({ id, number: v.number() }) }),
    example: { ticket: { id: sampleTicket.id, number: 1 } },
  }),
  'ticket.merged': event({
    description:
      "A ticket (`source`) was merged into another (`ticket`, the target, whose thread now shows the source's): the source is closed and read-only, and mail, reply addresses and page links of the source reach the target.",
    data: v.object({ ...ticketEvent, source: ticketRef }),
    example: { ticket: sampleTicket, customer: sampleCustomer, source: { id: sampleSourceId, number: 41 } },
  }),
  'ticket.unmerged': event({
    description:
      'A merge was undone (within 7 days): the source ticket (`source`) has its thread, status and customers back, and the target (`ticket`) no longer shows them.',
    data: v.object({ ...ticketEvent, source: ticketRef }),
    example: { ticket: sampleTicket, customer: sampleCustomer, source: { id: sampleSourceId, number: 41 } },
  }),
  'ticket.sla_warning': event({
    description:
      "A ticket's SLA target (`sla.target`: firstReply, nextReply or resolution) entered its last share of time (at risk, by default the last 20%); `sla.dueAt` is when it breaches.",
    data: v.object({ ...ticketEvent, sla: slaEvent }),
    example: { ticket: sampleTicket, customer: sampleCustomer, sla: sampleSla },
  }),
  'ticket.sla_breached': event({
    description: "A ticket's SLA target passed its due time unmet (fired within a minute of `sla.dueAt`).",
    data: v.object({ ...ticketEvent, sla: slaEvent }),
    example: { ticket: sampleTicket, customer: sampleCustomer, sla: sampleSla },
  }),
  'message.received': event({
    description:
      'A message was added to a ticket (any sender; the spec event). message.sent and note.added say which kind.',
    data: v.object({ ...ticketEvent, message }),
    example: {
      ticket: sampleTicket,
      customer: sampleCustomer,
      message: sampleMessage('customer', 'public', 'Any news?'),
    },
  }),
  'message.sent': event({
    description: 'A public staff reply was added to a ticket (the customer is mailed).',
    data: v.object({ ...ticketEvent, message }),
    example: {
      ticket: sampleTicket,
      customer: sampleCustomer,
      message: sampleMessage('staff', 'public', 'We are on it.'),
    },
  }),
  'note.added': event({
    description: 'An internal note was added to a ticket (never shown to the customer).',
    data: v.object({ ...ticketEvent, message }),
    example: {
      ticket: sampleTicket,
      customer: sampleCustomer,
      message: sampleMessage('staff', 'internal', 'Refund approved.'),
    },
  }),
  'customer.created': event({
    description: 'A customer entered the directory (through the API, or their first ticket or feedback).',
    data: v.object({ customer: customerRecord }),
    example: { customer: sampleCustomerRecord },
  }),
  'customer.updated': event({
    description: "A customer's profile was updated.",
    data: v.object({ customer: customerRecord }),
    example: { customer: sampleCustomerRecord },
  }),
  'customer.deleted': event({
    description: 'A customer was deleted (their tickets stay, without the link).',
    data: v.object({ customer: v.object({ id, email: v.string() }) }),
    example: { customer: { id: sampleCustomerRecord.id, email: sampleCustomer.email } },
  }),
  'email.sent': event({
    description: 'SES accepted a transactional email (sandbox: captured, not sent).',
    data: v.object({ email, sesMessageId: nullableText }),
    example: { email: sampleEmail, sesMessageId: '0100018f-sample' },
  }),
  'email.delivered': event({
    description: "The recipient's mail server accepted the email.",
    data: v.object({ email, recipients: v.array(v.string()) }),
    example: { email: sampleEmail, recipients: [sampleEmail.to] },
  }),
  'email.delivery_delayed': event({
    description: "Delivery is delayed (the recipient's server deferred it); SES keeps trying.",
    data: v.object({ email, reason: nullableText }),
    example: { email: sampleEmail, reason: 'MailboxFull' },
  }),
  'email.bounced': event({
    description: 'A transactional email bounced permanently; the recipient is suppressed.',
    data: bounce,
    example: { email: sampleEmail, type: 'bounced', recipient: sampleEmail.to, suppressed: true },
  }),
  'email.complained': event({
    description: 'The recipient marked the email as spam; the address is suppressed.',
    data: v.object({ email, recipient: v.string(), suppressed: v.boolean() }),
    example: { email: sampleEmail, recipient: sampleEmail.to, suppressed: true },
  }),
  'email.opened': event({
    description: 'The recipient opened the email (only for sends with `tracking.opens`).',
    data: v.object({ email, openedAt: time }),
    example: { email: sampleEmail, openedAt: '2026-01-01T00:05:00.000Z' },
  }),
  'email.clicked': event({
    description: 'The recipient followed a link of the email (only for sends with `tracking.clicks`).',
    data: v.object({ email, link: v.string(), clickedAt: time }),
    example: { email: sampleEmail, link: 'https://example.com/order/1', clickedAt: '2026-01-01T00:06:00.000Z' },
  }),
  'email.failed': event({
    description: 'The email could not be sent (its template is gone, or SES refused or could not render it).',
    data: v.object({ email, error: v.string() }),
    example: { email: sampleEmail, error: 'Template "welcome" not found' },
  }),
  'email.suppressed': event({
    description: 'The email was not sent: its recipient is on the suppression list.',
    data: v.object({ email, recipient: v.string(), reason: v.string() }),
    example: { email: sampleEmail, recipient: sampleEmail.to, reason: 'bounced' },
  }),
  'feedback.submitted': event({
    description: 'A customer submitted a satisfaction rating or feedback.',
    data: v.object({
      conversation: v.looseObject({ id, rating: v.nullish(v.number()) }),
      customer,
      requestId: nullableText,
      comment: nullableText,
    }),
    example: {
      conversation: { id: '00000000-0000-4000-8000-000000000004', subject: 'Sample feedback', rating: 5 },
      customer: sampleCustomer,
      requestId: null,
      comment: 'Great support!',
    },
  }),
  'log_issue.created': event({
    description: 'A log event started a new issue.',
    data: v.object({ issue }),
    example: { issue: sampleIssue },
  }),
  'log_issue.regressed': event({
    description: 'A resolved issue happened again (it is open again).',
    data: v.object({ issue }),
    example: { issue: { ...sampleIssue, regressed: true } },
  }),
  'log_issue.alert': event({
    description:
      'An alert rule with the webhook action fired for an issue (a new issue, a regression, a spike or a threshold), at most once per rule and issue per cool-down.',
    data: v.object({ alert: v.object(alertFields), issue }),
    example: {
      alert: {
        id: '00000000-0000-4000-8000-000000000008',
        ruleId: '00000000-0000-4000-8000-000000000009',
        ruleName: 'Checkout errors spike',
        trigger: 'spike',
        count: 120,
        windowMinutes: 5,
        baseline: 2.5,
        firedAt: '2026-01-01T01:00:00.000Z',
      },
      issue: sampleIssue,
    },
  }),
  'log_issue.resolved': event({
    description: 'An issue was marked resolved.',
    data: v.object({ issue }),
    example: { issue: { ...sampleIssue, status: 'resolved' } },
  }),
  'webhook.endpoint.failing': event({
    description:
      'An endpoint of the account has failed every delivery for 24 hours (sent to the account’s other healthy endpoints).',
    data: v.object({ endpoint, failingSince: time }),
    example: { endpoint: sampleEndpoint, failingSince: '2026-01-01T00:00:00.000Z' },
  }),
  'webhook.endpoint.disabled': event({
    description: 'An endpoint was disabled after 5 days of failing deliveries, or after answering 410 Gone.',
    data: v.object({ endpoint, failingSince: nullableText, reason: v.string() }),
    example: { endpoint: sampleEndpoint, failingSince: '2026-01-01T00:00:00.000Z', reason: 'Failing for 5 days' },
  }),
  'webhook.endpoint.recovered': event({
    description: 'An endpoint answered again after a failure streak.',
    data: v.object({ endpoint, failingSince: time }),
    example: { endpoint: sampleEndpoint, failingSince: '2026-01-01T00:00:00.000Z' },
  }),
};

export type EventName = keyof typeof EVENT_CATALOG;
export type EventData<E extends EventName> = v.InferInput<(typeof EVENT_CATALOG)[E]['data']>;
export const EVENT_NAMES = Object.keys(EVENT_CATALOG) as [EventName, ...EventName[]];

/** The events an endpoint's filter names: catalog types, or every type under a prefix (`email.*`). */
export const matchesFilter = (filter: readonly string[] | undefined, event: EventName) =>
  !filter || filter.some((f) => f === event || (f.endsWith('.*') && event.startsWith(f.slice(0, -1))));

/** The prefixes a filter may name with `.*`: those of some catalog type. */
export const FILTER_PREFIXES = [
  ...new Set(
    EVENT_NAMES.flatMap((name) =>
      name
        .split('.')
        .slice(0, -1)
        .map((_, i, p) => `${p.slice(0, i + 1).join('.')}.*`),
    ),
  ),
];

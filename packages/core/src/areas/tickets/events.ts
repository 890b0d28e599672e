import type { WriteItem } from '../../kernel/db/commit.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { eventItem } from '../webhooks/emit.js';
import { UNASSIGNED } from './entities.js';
import { eventCustomer, eventTicket, type TicketItem, valuesOf } from './present.js';

/** The fields a person changes, as `ticket.updated` names them. */
const FIELDS = { status: 'status', priority: 'priority', category: 'category', assignee: 'assignedTo' } as const;
const assigneeOf = (t: TicketItem) => (t.assignee === UNASSIGNED ? null : t.assignee);

/**
 * The catalog events of a ticket change, committed with it: `ticket.updated` with each changed field
 * (a status moved by a message counts too), `ticket.assigned`, `ticket.status_changed` and
 * `ticket.resolved` when those moved. None when nothing a person sees changed.
 */
export function ticketChangeEvents(ctx: TenantContext, before: TicketItem, after: TicketItem): WriteItem[] {
  const data = { ticket: eventTicket(after), customer: eventCustomer(after) };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, name] of Object.entries(FIELDS) as [keyof typeof FIELDS, string][]) {
    const [from, to] =
      field === 'assignee' ? [assigneeOf(before), assigneeOf(after)] : [before[field] ?? null, after[field] ?? null];
    if (from !== to) changes[name] = { from, to };
  }
  const [fromValues, toValues] = [valuesOf(before), valuesOf(after)];
  for (const key of new Set([...Object.keys(fromValues), ...Object.keys(toValues)])) {
    const [from, to] = [fromValues[key] ?? null, toValues[key] ?? null];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[`customFields.${key}`] = { from, to };
  }
  if (Object.keys(changes).length === 0) return [];
  return [
    eventItem(ctx, 'ticket.updated', { ...data, changes }),
    ...(changes.assignedTo
      ? [eventItem(ctx, 'ticket.assigned', { ...data, from: assigneeOf(before), to: assigneeOf(after) })]
      : []),
    ...(changes.status
      ? [eventItem(ctx, 'ticket.status_changed', { ...data, from: before.status, to: after.status })]
      : []),
    ...(after.status === 'resolved' && before.status !== 'resolved' ? [eventItem(ctx, 'ticket.resolved', data)] : []),
  ];
}

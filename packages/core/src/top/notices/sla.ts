import type { EventData } from '../../areas/webhooks/catalog.js';
import type { EventEnvelope } from '../../areas/webhooks/queue.js';
import { listMembers } from '../../identity/accounts.js';
import { tenantOfProject } from '../../identity/tenant.js';
import { env } from '../../kernel/config.js';
import { mailOnce } from './mail-once.js';

const TARGET_NAMES = { firstReply: 'first reply', nextReply: 'next reply', resolution: 'resolution' } as const;

/**
 * An SLA warning or breach is mailed to the ticket's assignee, or to the account's admins when nobody
 * (or a member since removed) is assigned, once per event (mail-once.ts): the team hears of it at the
 * minute the event fires, not at their next look at the list.
 */
export async function mailSlaNotice(envelope: EventEnvelope) {
  const event = envelope.event;
  if (event !== 'ticket.sla_warning' && event !== 'ticket.sla_breached') return;
  const ctx = await tenantOfProject(envelope.projectId, envelope.env);
  if (!ctx) return;
  const data = envelope.data as EventData<typeof event>;
  const members = await listMembers(envelope.accountId);
  const assignee = members.find((m) => m.id === data.sla.assignedTo);
  const recipients = assignee ? [assignee] : members.filter((m) => m.role === 'admin');
  const target = TARGET_NAMES[data.sla.target as keyof typeof TARGET_NAMES] ?? data.sla.target;
  const breached = event === 'ticket.sla_breached';
  const link = `${env.publicBaseUrl}/console/tickets/${data.ticket.id}`;
  await mailOnce(
    envelope,
    ctx,
    recipients.map((m) => m.email),
    {
      subject: `${breached ? 'SLA breached' : 'SLA at risk'}: #${data.ticket.number} ${data.ticket.subject}`,
      markdown: `The ${target} target of ticket #${data.ticket.number} ${breached ? 'was due' : 'is due'} at ${data.sla.dueAt} (UTC)${breached ? ' and was missed' : ''}.\n\n[Open the ticket](${link})`,
      kind: 'sla_notice',
      metadata: { ticketId: data.ticket.id },
    },
  );
}

import { commit, update } from '../../kernel/db/commit.js';
import type { QueueMessage } from '../../kernel/ports/queue.js';
import { cancelSchedule } from '../../kernel/ports/scheduler.js';
import type { SlaClock } from '../sla/clock.js';
import type { slaTimersQueue } from '../sla/queue.js';
import { eventItem } from '../webhooks/emit.js';
import { Ticket, UNASSIGNED } from './entities.js';
import { dayWrites, slaDeltas, slaGroupsOf } from './metrics.js';
import { eventCustomer, eventTicket } from './present.js';
import { clockOf } from './sla.js';

type Job = QueueMessage<typeof slaTimersQueue>;
type Timer = Exclude<Job, { kind: 'cancel' }>;

/** An slaTimers message: a timer that fired, or schedules a clock change made stale, to delete. */
export async function handleSlaJob(job: Job): Promise<void> {
  if (job.kind !== 'cancel') return fireSlaTimer(job);
  // Gone already (fired, or cancelled by a redelivery of this message) is as good as deleted.
  for (const jobId of job.jobIds) await cancelSchedule(jobId);
}

/**
 * A warning or breach timer fired. It acts only if the ticket's clock still runs that target towards
 * that due time (any change since made it stale); a breach is recorded on the clock (without moving the
 * ticket's activity time) and announced in one transaction, written only if the ticket is unchanged
 * since read, so a change racing the timer is seen by the next attempt. Event ids are deterministic: a
 * timer delivered twice announces once.
 */
export async function fireSlaTimer(job: Timer): Promise<void> {
  const key = { projectId: job.projectId, env: job.env, ticketId: job.ticketId };
  const ctx = { projectId: job.projectId, env: job.env, accountId: job.accountId };
  let ticket = (await Ticket.get(key).go()).data;
  const current = () => {
    const clock = ticket ? clockOf(ticket) : undefined;
    const t = clock?.targets[job.target];
    return clock && t?.runningSince && t.dueAt === job.dueAt ? { clock, t } : undefined;
  };
  await commit({
    items: () => {
      const live = current();
      if (!ticket || !live) return {};
      const sla = {
        target: job.target,
        policyId: live.clock.rules.policyId,
        dueAt: job.dueAt,
        assignedTo: ticket.assignee === UNASSIGNED ? null : ticket.assignee,
      };
      const data = { ticket: eventTicket(ticket), customer: eventCustomer(ticket), sla };
      const id = `sla-${job.kind}-${job.ticketId}-${job.target}-${job.dueAt}`;
      if (job.kind === 'warning') return { event: eventItem(ctx, 'ticket.sla_warning', data, { id }) };
      if (live.t.breachedAt) return {};
      const breached: SlaClock = {
        ...live.clock,
        targets: { ...live.clock.targets, [job.target]: { ...live.t, status: 'breached', breachedAt: job.dueAt } },
      };
      const seen = ticket.updatedAt;
      return {
        ticket: update(
          Ticket.patch(key)
            .set({ sla: breached })
            .where((a, op) => op.eq(a.updatedAt, seen)),
        ),
        event: eventItem(ctx, 'ticket.sla_breached', data, { id }),
        metrics: dayWrites(ctx, slaDeltas(ticket, { ...ticket, sla: breached }, job.dueAt, slaGroupsOf(ticket))),
      };
    },
    refused: async () => {
      ticket = (await Ticket.get(key).go()).data;
    },
    exhausted: () => new Error(`SLA timer for ${job.ticketId} kept colliding`),
  });
}

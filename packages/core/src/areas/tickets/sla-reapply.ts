import { commit, update } from '../../kernel/db/commit.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { QueueMessage } from '../../kernel/ports/queue.js';
import { advanceAll } from '../sla/clock.js';
import { slaReapplyQueue } from '../sla/queue.js';
import { rulesFor, slaSetup } from '../sla/setup.js';
import { Ticket } from './entities.js';
import { OPEN_STATUSES } from './list-plan.js';
import { dayWrites, slaDeltas, slaGroupsOf } from './metrics.js';
import { ticketsByIds } from './search.js';
import { clockOf, dueWrites, factsOf, sameRules, timerItems } from './sla.js';

/** Tickets one message reads before it hands the rest to the next message (a Lambda's time is bounded). */
export const REAPPLY_ROUND = 200;

type Job = QueueMessage<typeof slaReapplyQueue>;

/**
 * Chooses the SLA policy of each open ticket again, as a priority change would: a running clock keeps
 * its minutes against the new targets; a ticket without one gets a clock from now. Each ticket is its own
 * transaction, written only if unchanged since read (a ticket changed meanwhile already chose), and its
 * activity time does not move. The next round is chained once the round is done.
 */
export async function reapplyPolicies(job: Job) {
  const tenant = { projectId: job.projectId, env: job.env };
  const setup = await slaSetup(tenant);
  const page = await Ticket.query
    .recent(tenant)
    .go({ limit: REAPPLY_ROUND, ...(job.cursor ? { cursor: job.cursor } : {}) });
  // A list entry holds a row's fields; choosing a policy needs the whole ticket (its source, metrics).
  const open = await ticketsByIds(
    tenant,
    page.data.filter((t) => OPEN_STATUSES.includes(t.status)).map((t) => t.ticketId),
  );
  const now = new Date().toISOString();
  const next = page.cursor ? outboxItem(slaReapplyQueue, { ...job, cursor: page.cursor }) : undefined;
  for (const t of open) {
    const before = clockOf(t);
    const facts = await factsOf(t, setup);
    const rules = rulesFor(setup, { priority: t.priority, category: t.category, source: t.source, ...facts });
    // The same policy chosen again moves nothing (a breach stays where it happened).
    if (sameRules(rules, before)) continue;
    const after = advanceAll(before, rules, [{ kind: before ? 'rules' : 'created' }], t.status, Date.parse(now));
    const changed = { ...t, sla: after };
    await commit({
      items: () => ({
        ticket: update(
          (after ? Ticket.patch(t).set({ sla: after }) : Ticket.patch(t).remove(['sla'])).where((a, op) =>
            op.eq(a.updatedAt, t.updatedAt),
          ),
        ),
        due: dueWrites(t, before, after),
        timers: timerItems({ ...tenant, accountId: job.accountId }, t.ticketId, before, after, now),
        metrics: dayWrites(tenant, slaDeltas(t, changed, now, slaGroupsOf(t))),
      }),
      refused: () => 'stop',
      exhausted: () => new Error(`Re-choosing the SLA policy of ${t.ticketId} kept colliding`),
    });
  }
  // The next round once this one is done: a round cut short is redone whole (choosing again is idempotent).
  if (next) await commit({ items: () => ({ next }), exhausted: () => new Error('Chaining the next round failed') });
}

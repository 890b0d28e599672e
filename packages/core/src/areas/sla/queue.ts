import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { ENVIRONMENTS } from '../../kernel/tenant.js';
import { SLA_TARGETS } from './values.js';

/**
 * slaTimers: one-time schedules (EventBridge Scheduler; the table stand-in locally) that fire at a
 * target's warning point and due time. The consumer checks the ticket's clock still has that due time
 * running: a schedule made stale by a later change does nothing. A write that makes schedules stale also
 * sends a `cancel` message naming them, and its consumer deletes them (those still far enough ahead to be
 * schedules rather than delayed messages, which cannot be taken back).
 */
export const slaTimersQueue = defineQueue({
  name: 'slaTimers',
  consumer: 'sla-timers',
  batchSize: 10,
  visibilityTimeout: 60,
  maxReceiveCount: 5,
  message: v.variant('kind', [
    v.object({
      projectId: v.string(),
      env: v.picklist(ENVIRONMENTS),
      accountId: v.string(),
      ticketId: v.string(),
      target: v.picklist(SLA_TARGETS),
      kind: v.picklist(['warning', 'breach']),
      dueAt: v.string(),
    }),
    v.object({ kind: v.literal('cancel'), jobIds: v.pipe(v.array(v.string()), v.maxLength(2 * SLA_TARGETS.length)) }),
  ]),
});

/**
 * slaReapply: a policy saved with `applyToOpen` chooses the policy of every open ticket again, a round
 * of tickets a message, the next round chained as an outbox item (tickets/sla-reapply.ts).
 */
export const slaReapplyQueue = defineQueue({
  name: 'slaReapply',
  consumer: 'sla-reapply',
  batchSize: 1,
  visibilityTimeout: 300,
  maxReceiveCount: 5,
  message: v.object({
    projectId: v.string(),
    env: v.picklist(ENVIRONMENTS),
    accountId: v.string(),
    /** Where the previous round stopped in the activity index (ElectroDB's cursor). */
    cursor: v.optional(v.string()),
  }),
});

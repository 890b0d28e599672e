import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { ENVIRONMENTS } from '../../kernel/tenant.js';

const tenant = { projectId: v.string(), env: v.picklist(ENVIRONMENTS) };

/**
 * fieldCleanup: a deleted ticket field whose values are to leave the tickets (a round of them a
 * message), or a deleted ticket whose value index items and counts are to go.
 */
export const fieldCleanupQueue = defineQueue({
  name: 'fieldCleanup',
  consumer: 'field-cleanup',
  batchSize: 1,
  visibilityTimeout: 300,
  maxReceiveCount: 5,
  message: v.union([
    v.object({ ...tenant, key: v.string() }),
    v.object({
      ...tenant,
      ticketId: v.string(),
      /** Per field the ticket held a value of: the sort keys of its index items. */
      values: v.array(v.object({ key: v.string(), sortKeys: v.array(v.string()) })),
    }),
  ]),
});

import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { ENVIRONMENTS } from '../../kernel/tenant.js';

/** fieldCleanup: a deleted ticket field whose values are to leave the tickets (a round of them a message). */
export const fieldCleanupQueue = defineQueue({
  name: 'fieldCleanup',
  consumer: 'field-cleanup',
  batchSize: 1,
  visibilityTimeout: 300,
  maxReceiveCount: 5,
  message: v.object({ projectId: v.string(), env: v.picklist(ENVIRONMENTS), key: v.string() }),
});

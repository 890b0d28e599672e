import { fieldCleanupQueue } from '@helpdesk/core/areas/ticket-fields/queue';
import { removeFieldValues, removeTicketValues } from '@helpdesk/core/areas/tickets/field-cleanup';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** A deleted ticket field's values leave the tickets (a round a message; then its key is free), or a deleted ticket's leave the index. */
export const handler = consumer(fieldCleanupQueue, {
  each: (job) => ('key' in job ? removeFieldValues(job) : removeTicketValues(job)),
});

import { removeFieldValues } from '@helpdesk/core/areas/tickets/field-cleanup';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** A deleted ticket field's values leave the tickets, a round a message; then its key is free. */
export const handler = consumer('fieldCleanup', { each: removeFieldValues });

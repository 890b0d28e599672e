import { outboxStreamRelay } from '@helpdesk/core/top/queues/outbox-stream';

/** The table's stream, filtered to new outbox items: moves each to its queue or its schedule. */
export const handler = outboxStreamRelay();

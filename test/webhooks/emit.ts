import type { EventData, EventName } from '@helpdesk/core/areas/webhooks/catalog';
import { type EventSource, eventItem } from '@helpdesk/core/areas/webhooks/emit';
import { commit } from '@helpdesk/core/kernel/db/commit';

/** An event as a write commits it: its outbox item alone, for tests of delivery. */
export async function emitEvent<E extends EventName>(source: EventSource, event: E, data: EventData<E>) {
  await commit({ items: () => ({ event: eventItem(source, event, data) }), exhausted: () => new Error('collided') });
}

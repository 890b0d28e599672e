import { type EventSource, eventItem } from '@helpdesk/core/areas/webhooks/emit';
import type { EventName } from '@helpdesk/core/areas/webhooks/values';
import { commit } from '@helpdesk/core/kernel/db/commit';

/** An event as a write commits it: its outbox item alone, for tests of delivery. */
export async function emitEvent(source: EventSource, event: EventName, data: Record<string, unknown>) {
  await commit({ items: () => ({ event: eventItem(source, event, data) }), exhausted: () => new Error('collided') });
}

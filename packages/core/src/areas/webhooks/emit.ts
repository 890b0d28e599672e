import { randomUUID } from 'node:crypto';
import type { WriteItem } from '../../kernel/db/commit.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { EventData, EventName } from './catalog.js';
import { type EventEnvelope, webhooksQueue } from './queue.js';

export interface EventSource {
  accountId: string;
  projectId: string;
  env: 'live' | 'sandbox';
}

/**
 * A domain event, as an outbox item of the write that causes it (a named item of its `commit()`):
 * committed with the write or not at all, then fanned out to the project's endpoints. Its data has
 * the type its catalog entry (catalog.ts) gives it.
 */
export function eventItem<E extends EventName>(
  source: EventSource,
  event: E,
  data: EventData<E>,
  options: { at?: Date; id?: string } = {},
): WriteItem {
  const at = options.at ?? new Date();
  const envelope: EventEnvelope = {
    // A deterministic id (an SES event's own) makes a redelivered cause write the same outbox item once.
    id: options.id ?? randomUUID(),
    event,
    timestamp: at.toISOString(),
    accountId: source.accountId,
    projectId: source.projectId,
    env: source.env,
    data: data as Record<string, unknown>,
  };
  return outboxItem(webhooksQueue, envelope, { id: `event-${envelope.id}` });
}

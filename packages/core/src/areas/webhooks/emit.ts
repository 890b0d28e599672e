import { randomUUID } from 'node:crypto';
import type { WriteItem } from '../../kernel/db/commit.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import { type EventEnvelope, webhooksQueue } from './queue.js';
import type { EventName } from './values.js';

export interface EventSource {
  accountId: string;
  projectId: string;
  env: 'live' | 'sandbox';
}

/**
 * A domain event, as an outbox item of the write that causes it (a named item of its `commit()`):
 * committed with the write or not at all, then fanned out to the project's endpoints.
 */
export function eventItem(
  source: EventSource,
  event: EventName,
  data: Record<string, unknown>,
  at = new Date(),
): WriteItem {
  const envelope: EventEnvelope = {
    id: randomUUID(),
    event,
    timestamp: at.toISOString(),
    accountId: source.accountId,
    projectId: source.projectId,
    env: source.env,
    data,
  };
  return outboxItem(webhooksQueue, envelope, { id: `event-${envelope.id}` });
}

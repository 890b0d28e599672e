import { randomUUID } from 'node:crypto';
import { logger } from '../../kernel/logger.js';
import { enqueue } from '../../kernel/ports/queue.js';
import type { EventEnvelope } from './queue.js';
import { webhooksQueue } from './queue.js';
import type { EventName } from './values.js';

export interface EventSource {
  accountId: string;
  projectId: string;
  env: 'live' | 'sandbox';
}

/**
 * Puts a domain event on the webhook queue, after the write that caused it has committed.
 * Never fails the caller: a lost enqueue is logged, the API answer stands.
 */
export async function emitEvent(source: EventSource, event: EventName, data: Record<string, unknown>) {
  const envelope: EventEnvelope = {
    id: randomUUID(),
    event,
    timestamp: new Date().toISOString(),
    accountId: source.accountId,
    projectId: source.projectId,
    env: source.env,
    data,
  };
  try {
    await enqueue(webhooksQueue, envelope);
  } catch (error) {
    logger.error('Could not enqueue webhook event', { event, error: error as Error });
  }
}

import { vi } from 'vitest';
import type { RecordedEvent } from './helpers.js';

/**
 * Every event the file's requests emit, in order; the real emitter still runs (webhooks fire).
 * The mock must be in place before the handlers load, which the local app does on the first request.
 */
export const events: RecordedEvent[] = [];

vi.mock('@helpdesk/core/webhooks/emit', async (importOriginal) => {
  const original = await importOriginal<typeof import('@helpdesk/core/webhooks/emit')>();
  return {
    ...original,
    emitEvent: async (...args: Parameters<typeof original.emitEvent>) => {
      events.push({ source: args[0], name: args[1], data: args[2] });
      return original.emitEvent(...args);
    },
  };
});

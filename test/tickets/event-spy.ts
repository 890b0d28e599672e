import type { RecordedEvent } from './helpers.js';

/**
 * Every event the file's requests emit, in order; the real emitter still runs (webhooks fire). A test
 * file mocks the emitter with `spiedEmitter` before anything loads it (vi.mock is hoisted above the
 * file's imports, so import order cannot undo it):
 * `vi.mock('@helpdesk/core/areas/webhooks/emit', async (original) => (await import('./event-spy.js')).spiedEmitter(original));`
 */
export const events: RecordedEvent[] = [];

type Emitter = typeof import('@helpdesk/core/areas/webhooks/emit');

export async function spiedEmitter(importOriginal: <M>() => Promise<M>): Promise<Emitter> {
  const original = await importOriginal<Emitter>();
  return {
    ...original,
    emitEvent: (...args: Parameters<Emitter['emitEvent']>) => {
      events.push({ source: args[0], name: args[1], data: args[2] });
      return original.emitEvent(...args);
    },
  };
}

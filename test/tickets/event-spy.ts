import type { RecordedEvent } from './helpers.js';

/**
 * Every domain event the file's writes committed, in the order the relay moved them: the spy wraps the
 * outbox relay, so an event is recorded only once its write committed (a refused write records none).
 * A test file installs it before anything loads the relay (vi.mock is hoisted above the file's imports):
 * `vi.mock('@helpdesk/core/kernel/ports/relay', async (original) => (await import('./event-spy.js')).spiedRelay(original));`
 * and reads `await emitted(app)`, which first relays what the table's stream holds.
 */
const recorded: RecordedEvent[] = [];
const seen = new Set<string>();

type Relay = typeof import('@helpdesk/core/kernel/ports/relay');

export async function spiedRelay(importOriginal: <M>() => Promise<M>): Promise<Relay> {
  const original = await importOriginal<Relay>();
  return {
    ...original,
    relayOutbox: (records, options) => {
      for (const record of records) {
        if (record.queue !== 'webhooks') continue;
        const message = JSON.parse(record.body) as {
          kind?: string;
          event: string;
          data: RecordedEvent['data'];
        } & RecordedEvent['source'];
        // Fan-out jobs and retries are deliveries, not events.
        if (message.kind === 'delivery' || seen.has(record.sk)) continue;
        seen.add(record.sk);
        const { projectId, env, accountId } = message;
        recorded.push({ source: { projectId, env, accountId }, name: message.event, data: message.data });
      }
      return original.relayOutbox(records, options);
    },
  };
}

/** The events committed so far (after relaying what is waiting). */
export async function emitted(app: { relayed(): Promise<void> }): Promise<RecordedEvent[]> {
  await app.relayed();
  return recorded;
}

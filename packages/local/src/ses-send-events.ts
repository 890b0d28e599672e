import { sesEventsQueue } from '@helpdesk/core/areas/emails/queue';
import { outboxRecord, putOutbox } from '@helpdesk/core/kernel/ports/outbox';

interface StoredMail {
  messageId: string;
  headers?: { name: string; value: string }[];
}

/** `a=1, b=2` (SES's X-SES-MESSAGE-TAGS) as SES event tags: `{ a: ['1'], b: ['2'] }`. */
export function tagsOf(header: string): Record<string, string[]> {
  const tags: Record<string, string[]> = {};
  for (const pair of header.split(',')) {
    const eq = pair.indexOf('=');
    if (eq > 0) tags[pair.slice(0, eq).trim()] = [pair.slice(eq + 1).trim()];
  }
  return tags;
}

/**
 * SES's Send events, played from the SES stand-in's side: every mail the stand-in accepted with this
 * service's tags becomes a Send event on the sesEvents queue (through the outbox, so it survives a
 * restart of the stack). As with SES, the event does not depend on the sender having lived to record
 * the send: a consumer that died after the stand-in answered leaves the row `sending`, and the event
 * tells the next consumer not to send it again. At start, the mails already in the store are read
 * again (the consumer ignores events for rows that moved on).
 */
export function startSesSendEvents(sesEndpoint: string, everyMs = 1_000) {
  const seen = new Set<string>();
  let running = true;
  const tick = async () => {
    const res = await fetch(`${sesEndpoint}/store`, { signal: AbortSignal.timeout(5_000) });
    const { emails } = (await res.json()) as { emails: StoredMail[] };
    const fresh = emails.filter((m) => !seen.has(m.messageId));
    const events = fresh.flatMap((m) => {
      const header = m.headers?.find((h) => h.name.toLowerCase() === 'x-ses-message-tags')?.value;
      return header
        ? [outboxRecord(sesEventsQueue, { eventType: 'Send', mail: { messageId: m.messageId, tags: tagsOf(header) } })]
        : [];
    });
    await putOutbox(events);
    for (const m of fresh) seen.add(m.messageId);
  };
  const loop = (async () => {
    while (running) {
      // A stand-in that does not answer this time is read again on the next tick.
      await tick().catch(() => undefined);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

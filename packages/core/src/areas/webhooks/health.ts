import type { WriteItem } from '../../kernel/db/commit.js';
import { type EventSource, eventItem } from './emit.js';

/** A streak of failed deliveries this long warns the account (webhook.endpoint.failing, an email to its admins). */
export const FAILING_NOTICE_MS = 24 * 3_600_000;
/** ...and this long disables the endpoint (webhook.endpoint.disabled, an email). */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

interface Endpoint {
  webhookId: string;
  url: string;
  failingSince?: string;
}

/**
 * The health events of one attempt's outcome: the endpoint recovered (a success after a streak),
 * has been failing for a day, or was disabled. Each id is derived from the endpoint and its streak,
 * so every attempt of a streak writes the same outbox item and the event goes out once.
 */
export function healthEvents(
  source: EventSource,
  endpoint: Endpoint,
  outcome: { ok: boolean; disable?: string },
  now: number,
): WriteItem[] {
  const ref = { id: endpoint.webhookId, url: endpoint.url };
  const streak = endpoint.failingSince;
  const id = (kind: string) => `health-${kind}-${endpoint.webhookId}-${streak ?? now}`;
  if (outcome.ok) {
    return streak
      ? [
          eventItem(
            source,
            'webhook.endpoint.recovered',
            { endpoint: ref, failingSince: streak },
            { id: id('recovered') },
          ),
        ]
      : [];
  }
  if (outcome.disable) {
    return [
      eventItem(
        source,
        'webhook.endpoint.disabled',
        { endpoint: ref, failingSince: streak ?? null, reason: outcome.disable },
        { id: id('disabled') },
      ),
    ];
  }
  return streak && now - Date.parse(streak) >= FAILING_NOTICE_MS
    ? [eventItem(source, 'webhook.endpoint.failing', { endpoint: ref, failingSince: streak }, { id: id('failing') })]
    : [];
}

/** Health events are about one endpoint: they go to the project's other endpoints, never to it. */
export const aboutEndpoint = (data: Record<string, unknown>) => (data.endpoint as { id?: string } | undefined)?.id;

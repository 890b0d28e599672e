import * as v from 'valibot';
import { EVENT_CATALOG, EVENT_NAMES, type EventName } from '../../areas/webhooks/catalog.js';
import { jsonSchemaOf } from './schema.js';

/** The body of a delivery of `event` (the spec's `event`, Standard Webhooks' `type`, the time and the data). */
const deliverySchema = (event: EventName) =>
  v.object({
    event: v.literal(event),
    type: v.literal(event),
    timestamp: v.pipe(v.string(), v.isoTimestamp()),
    data: EVENT_CATALOG[event].data,
  });

/** Every catalog type with its description, JSON Schema and example (GET /webhook-event-types). */
export const webhookEventTypes = () =>
  EVENT_NAMES.map((type) => ({
    type,
    description: EVENT_CATALOG[type].description,
    schema: jsonSchemaOf(EVENT_CATALOG[type].data),
    example: EVENT_CATALOG[type].example,
  }));

const HEADERS = {
  'webhook-id': 'The delivery id: the same on every attempt and recovery (deduplicate on it)',
  'webhook-timestamp': "This attempt's time, in seconds since the epoch (refuse old ones: replays)",
  'webhook-signature':
    'Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per valid secret, space-separated',
  'X-Service-Signature': 'Hex HMAC-SHA256 of the body, keyed with the secret; one per valid secret, space-separated',
  'X-Service-Event': 'The event type',
};

/** The OpenAPI 3.1 `webhooks` object: one POST per catalog type, as receivers get it. */
export function openApiWebhooks() {
  return Object.fromEntries(
    EVENT_NAMES.map((event) => [
      event,
      {
        post: {
          operationId: `webhook.${event}`,
          summary: EVENT_CATALOG[event].description,
          tags: ['Webhook events'],
          parameters: Object.entries(HEADERS).map(([name, description]) => ({
            name,
            in: 'header',
            required: true,
            description,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: jsonSchemaOf(deliverySchema(event)),
                example: {
                  event,
                  type: event,
                  timestamp: '2026-01-01T00:00:00.000Z',
                  data: EVENT_CATALOG[event].example,
                },
              },
            },
          },
          responses: { 200: { description: 'Any 2xx acknowledges the delivery; anything else is retried' } },
        },
      },
    ]),
  );
}

/** Validates a received delivery body against its catalog entry: the issues, none when it conforms. */
export function deliveryIssues(body: unknown): string[] {
  const event = (body as { event?: string } | undefined)?.event as EventName | undefined;
  if (!event || !(event in EVENT_CATALOG)) return [`unknown event ${String(event)}`];
  const parsed = v.safeParse(v.strictObject(deliverySchema(event).entries), body);
  return parsed.success ? [] : parsed.issues.map((i) => `${v.getDotPath(i) ?? '(body)'}: ${i.message}`);
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { operations, webhooks } from './schema.js';

/** A delivery's body, by event type, as the API's OpenAPI document (`webhooks`) describes it. */
export type WebhookEvent = {
  [K in keyof webhooks]: operations[`webhook.${K & string}`] extends {
    requestBody: { content: { 'application/json': infer B } };
  }
    ? B
    : never;
}[keyof webhooks];

export class WebhookVerificationError extends Error {}

/** How far a delivery's timestamp may be from now (Standard Webhooks' default): older ones are replays. */
const TOLERANCE_SECONDS = 5 * 60;

const header = (headers: Record<string, string | string[] | undefined> | Headers, name: string) => {
  const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  return Array.isArray(value) ? value[0] : (value ?? undefined);
};

/**
 * Verifies a delivery as Standard Webhooks defines it and answers its typed body: the signature
 * (`webhook-signature`, one `v1,<base64>` per valid secret during a rotation) over
 * `webhook-id.webhook-timestamp.body`, keyed with your `whsec_…` secret, and a timestamp within five
 * minutes. Pass the raw body, exactly as received. Throws WebhookVerificationError otherwise.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  rawBody: string,
  now = Date.now(),
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook headers');
  const seconds = Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now / 1000 - seconds) > TOLERANCE_SECONDS)
    throw new WebhookVerificationError('The timestamp is too old or too new');
  const key = Buffer.from(
    secret.startsWith('whsec_') ? secret.slice(6) : secret,
    secret.startsWith('whsec_') ? 'base64' : 'utf8',
  );
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`, 'utf8').digest();
  const valid = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new WebhookVerificationError('No signature matches');
  return JSON.parse(rawBody) as WebhookEvent;
}

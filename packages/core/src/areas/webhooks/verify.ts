import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** X-Service-Signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the whole `whsec_…` string. */
export const signPayload = (rawBody: string, secret: string) =>
  createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');

/** The key Standard Webhooks derives from a `whsec_<base64>` secret: its base64 part, decoded. */
const standardKey = (secret: string) =>
  secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');

/** One `webhook-signature` entry (Standard Webhooks v1): base64 HMAC-SHA256 of `id.timestamp.body`. */
export const standardSignature = (id: string, timestamp: string, rawBody: string, secret: string) =>
  `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${rawBody}`, 'utf8').digest('base64')}`;

/** A short, non-secret name of a secret (the delivery log says which secrets signed a delivery). */
export const secretFingerprint = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 12);

/**
 * For receivers: true when one of `signatures` (the X-Service-Signature header: one digest, or during a
 * secret rotation's overlap one per valid secret, space-separated) matches the raw body. Compare the
 * exact bytes received, before any JSON parsing; each comparison runs in constant time.
 */
export function verifySignature(rawBody: string, signatures: string, secret: string): boolean {
  const expected = Buffer.from(signPayload(rawBody, secret), 'utf8');
  return signatures.split(' ').some((signature) => {
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

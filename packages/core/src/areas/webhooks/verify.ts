import { createHmac, timingSafeEqual } from 'node:crypto';

/** X-Service-Signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the whole `whsec_…` string. */
export const signPayload = (rawBody: string, secret: string) =>
  createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');

/**
 * For receivers: true when `signature` (the X-Service-Signature header) matches the raw body.
 * Compare the exact bytes received, before any JSON parsing; the comparison runs in constant time.
 */
export function verifySignature(rawBody: string, signature: string, secret: string): boolean {
  const expected = Buffer.from(signPayload(rawBody, secret), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '../config.js';

/**
 * Tokens in links the service mails (a rating page, a reply thread, a customer's ticket page): the
 * parts, base64url, then an HMAC-SHA256 of them under the signing secret. Unguessable and unforgeable
 * without the secret; each kind of link names its purpose in its first part, so one kind's token
 * never opens another's page.
 */
const mac = (payload: string) => createHmac('sha256', env.signingSecret).update(payload).digest('base64url');

export function signToken(parts: string[]): string {
  const payload = parts.join(':');
  return `${Buffer.from(payload).toString('base64url')}.${mac(payload)}`;
}

/** The parts of a token this service signed; undefined for anything else. */
export function verifyToken(token: string): string[] | undefined {
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length) return undefined;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  // The decoder skips what is not base64url (and stops at `=`): only the canonical spelling of the
  // payload counts, so one link is one token and cannot be varied into endless others.
  if (Buffer.from(payload).toString('base64url') !== encoded) return undefined;
  const expected = Buffer.from(mac(payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return payload.split(':');
}

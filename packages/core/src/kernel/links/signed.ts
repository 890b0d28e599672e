import { createHmac, timingSafeEqual } from 'node:crypto';
import { acceptedSecrets, signingSecret } from '../secrets.js';

/**
 * Tokens in links the service mails (a rating page, a reply thread, a customer's ticket page): the
 * parts, base64url, then an HMAC-SHA256 of them under the signing secret. Unguessable and unforgeable
 * without the secret; each kind of link names its purpose in its first part, so one kind's token
 * never opens another's page.
 */
const mac = (payload: string, secret = signingSecret()) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

export function signToken(parts: string[]): string {
  const payload = parts.join(':');
  return `${Buffer.from(payload).toString('base64url')}.${mac(payload)}`;
}

/** Whether `given` equals the MAC of `payload` under any accepted secret (a rotation keeps older links working). */
const macMatches = (payload: string, given: string) => {
  const mine = Buffer.from(given);
  return acceptedSecrets().some((secret) => {
    const expected = Buffer.from(mac(payload, secret));
    return mine.length === expected.length && timingSafeEqual(mine, expected);
  });
};

/** The parts of a token this service signed; undefined for anything else. */
export function verifyToken(token: string): string[] | undefined {
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length) return undefined;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  // The decoder skips what is not base64url (and stops at `=`): only the canonical spelling of the
  // payload counts, so one link is one token and cannot be varied into endless others.
  if (Buffer.from(payload).toString('base64url') !== encoded) return undefined;
  if (!macMatches(payload, signature)) return undefined;
  return payload.split(':');
}

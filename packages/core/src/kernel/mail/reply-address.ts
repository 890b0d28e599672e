import { createHmac, timingSafeEqual } from 'node:crypto';
import { acceptedSecrets, signingSecret } from '../secrets.js';
import type { Environment } from '../tenant.js';
import { trimChars } from '../text.js';

/**
 * The addresses customers write to (docs/decisions.md, Conversations).
 *
 * - A project's inbound address, where a mail opens a ticket: `<slug>.<project>@<domain>`, the
 *   sandbox one `<slug>.<project>+sandbox@<domain>`. Project slugs are unique per account only, so
 *   the project id (base32, 26 characters) makes the address unique; teams forward their public
 *   support address to it, as with Zendesk's and Help Scout's forwarding addresses.
 * - A ticket's reply address (the Reply-To of every mail about the ticket):
 *   `<slug>+<token>@<domain>`. The token names project, environment and ticket number and carries
 *   an HMAC over them, so it cannot be forged or derived from a ticket id or number. It fits the
 *   64-character local part of RFC 5321 (43 characters plus as much of the slug as fits); the slug
 *   is cosmetic and routing reads only the token.
 *
 * Everything is lower-case base32: mail systems may change the case of a local part.
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const LOCAL_PART_MAX = 64;
/** 80 bits: an online guess is checked only by sending mail, and one in 2^80 is out of reach. */
const MAC_BYTES = 10;
const SANDBOX_TAG = 'sandbox';

function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string, byteLength: number): Buffer | undefined {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return bytes.length === byteLength ? Buffer.from(bytes) : undefined;
}

const UUID_BASE32_LENGTH = 26;
const uuidToBase32 = (uuid: string) => base32(Buffer.from(uuid.replace(/-/g, ''), 'hex'));
function base32ToUuid(text: string): string | undefined {
  const bytes = text.length === UUID_BASE32_LENGTH ? fromBase32(text, 16) : undefined;
  if (!bytes) return undefined;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const mac = (projectId: string, environment: Environment, ticketNumber: number, secret = signingSecret()) =>
  base32(
    createHmac('sha256', secret)
      .update(`reply:${projectId}:${environment}:${ticketNumber}`)
      .digest()
      .subarray(0, MAC_BYTES),
  );

/** Slugs are already lower-case letters, digits and hyphens; anything else is dropped to be safe. */
const cosmetic = (slug: string, room: number) =>
  trimChars(
    slug
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '')
      .slice(0, Math.max(0, room)),
    '-',
    'end',
  ) || 'support';

export interface ProjectRef {
  id: string;
  slug: string;
}

/** Where mail opens a new ticket in the project's environment. */
export function inboundAddress(project: ProjectRef, environment: Environment, domain: string): string {
  const id = uuidToBase32(project.id);
  const tag = environment === 'sandbox' ? `+${SANDBOX_TAG}` : '';
  return `${cosmetic(project.slug, LOCAL_PART_MAX - 1 - id.length - tag.length)}.${id}${tag}@${domain}`;
}

/** The token of a ticket's reply address: project, environment, MAC, ticket number (all base32). */
const replyToken = (projectId: string, environment: Environment, ticketNumber: number, secret?: string) =>
  `${uuidToBase32(projectId)}${environment === 'sandbox' ? 's' : 'l'}${mac(projectId, environment, ticketNumber, secret)}${base32(uintBytes(ticketNumber))}`;

/** The Reply-To of mail about one ticket. */
export function replyAddress(
  project: ProjectRef,
  environment: Environment,
  ticketNumber: number,
  domain: string,
): string {
  const token = replyToken(project.id, environment, ticketNumber);
  return `${cosmetic(project.slug, LOCAL_PART_MAX - 1 - token.length)}+${token}@${domain}`;
}

function uintBytes(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    bytes.unshift(rest % 256);
    rest = Math.floor(rest / 256);
  } while (rest > 0);
  return Buffer.from(bytes);
}

export type Recipient =
  | { kind: 'project'; projectId: string; env: Environment }
  | { kind: 'ticket'; projectId: string; env: Environment; ticketNumber: number };

/**
 * What an address on an inbound mail names, or undefined when it is not one of ours or its token
 * does not verify (a forged or mistyped token is treated like an unknown address, never guessed at).
 */
export function parseRecipient(address: string, domain: string): Recipient | undefined {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  const base = plus < 0 ? local : local.slice(0, plus);
  const tag = plus < 0 ? undefined : local.slice(plus + 1);

  if (tag === undefined || tag === SANDBOX_TAG) {
    const projectId = base32ToUuid(base.slice(base.lastIndexOf('.') + 1));
    return projectId ? { kind: 'project', projectId, env: tag ? 'sandbox' : 'live' } : undefined;
  }
  const projectId = base32ToUuid(tag.slice(0, UUID_BASE32_LENGTH));
  const envChar = tag[UUID_BASE32_LENGTH];
  const macLength = Math.ceil((MAC_BYTES * 8) / 5);
  const numberBytes = fromBase32Unsized(tag.slice(UUID_BASE32_LENGTH + 1 + macLength));
  if (!projectId || (envChar !== 'l' && envChar !== 's') || !numberBytes || numberBytes.length > 6) return undefined;
  const environment: Environment = envChar === 's' ? 'sandbox' : 'live';
  const ticketNumber = numberBytes.reduce((n, byte) => n * 256 + byte, 0);
  // Only the canonical spelling verifies: one token per ticket, whatever padding bits or zeros a forger adds.
  const given = Buffer.from(tag);
  const verified = acceptedSecrets().some((secret) => {
    const expected = Buffer.from(replyToken(projectId, environment, ticketNumber, secret));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!verified) return undefined;
  return { kind: 'ticket', projectId, env: environment, ticketNumber };
}

/** base32 of a byte string of unknown length (the ticket number), rejecting non-canonical padding bits. */
function fromBase32Unsized(text: string): Buffer | undefined {
  if (text.length === 0) return undefined;
  const byteLength = Math.floor((text.length * 5) / 8);
  const bytes = fromBase32(text, byteLength);
  return bytes && base32(bytes) === text ? bytes : undefined;
}

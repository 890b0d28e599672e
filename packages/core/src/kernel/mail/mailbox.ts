import { domainToASCII } from 'node:url';
import * as v from 'valibot';
import { PLAIN_LINE } from './plain-line.js';

/** One parsed address field (`addr@example.com`, `Name <addr@example.com>`, `"Doe, Jane" <jane@x.com>`). */
export interface Mailbox {
  /** The display name, unquoted and unescaped; undefined when none (`<a@b.c>` or a bare address). */
  name?: string;
  /** The address with its domain in ASCII (punycode): what SES accepts and what bounces report. */
  address: string;
}

/** The bare address is capped as before display names were accepted (RFC 5321's path limit). */
export const MAX_ADDRESS = 254;
/** A whole field: the address plus a display name of about 60 characters. */
export const MAX_MAILBOX_FIELD = 320;

/**
 * What SES can send to, beyond RFC 5322 (which the parser checked): a local part of ASCII atext and
 * dots (no SMTPUTF8), a host name of LDH labels ending in a TLD (punycode included; no IP literals).
 */
const SENDABLE_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const SENDABLE_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;

/** Specials (RFC 5322) outside a quoted name: a plain display name may not hold them ('.' is obs-phrase). */
const SPECIALS = '()<>[]:;@\\,"';

/** Splits `text` at commas outside quoted strings; linear, for telling a list from one mailbox. */
function hasTopLevel(text: string, wanted: string): boolean {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && wanted.includes(c)) return true;
  }
  return false;
}

/** A display name: a quoted string (escapes undone) or a phrase of words without specials; undefined if neither. */
function displayName(phrase: string): string | undefined {
  if (phrase.startsWith('"')) {
    let name = '';
    for (let i = 1; i < phrase.length; i++) {
      const c = phrase.charAt(i);
      if (c === '\\') name += phrase.charAt(++i);
      else if (c === '"') return i === phrase.length - 1 ? name : undefined;
      else name += c;
    }
    return undefined;
  }
  for (const c of phrase) if (SPECIALS.includes(c)) return undefined;
  return phrase.replace(/\s+/g, ' ');
}

const PROBLEMS = {
  list: 'Expected one address, not a list or a group (cc and bcc take a list)',
  form: 'Expected an email address, or a display name and address as "Name <address@example.com>"',
  sendable: `Expected an email address (ASCII before the @) of at most ${MAX_ADDRESS} characters`,
};

/**
 * Parses one mailbox: `address`, `<address>` or `Name <address>` with the name a phrase (UTF-8 allowed,
 * RFC 6532) or a quoted string. One linear pass, no backtracking: the RFC 5322 forms the service never
 * sends (comments, quoted or obsolete local parts, groups, IP-literal domains) are refused, since SES
 * takes only an ASCII dot-atom before the @ and a host name after it.
 */
export function parseMailbox(text: string): Mailbox | { problem: string } {
  const input = text.trim();
  if (input.length > MAX_MAILBOX_FIELD) return { problem: `At most ${MAX_MAILBOX_FIELD} characters` };
  if (!PLAIN_LINE.test(input)) return { problem: 'Control characters and line breaks are not allowed' };
  if (hasTopLevel(input, ',;')) return { problem: PROBLEMS.list };
  let name: string | undefined;
  let spec = input;
  if (input.endsWith('>')) {
    const open = input.lastIndexOf('<');
    if (open < 0) return { problem: PROBLEMS.form };
    const phrase = input.slice(0, open).trim();
    const parsedName = phrase ? displayName(phrase) : '';
    if (parsedName === undefined) return { problem: PROBLEMS.form };
    name = parsedName || undefined;
    spec = input.slice(open + 1, -1).trim();
  }
  const at = spec.lastIndexOf('@');
  if (
    at <= 0 ||
    at === spec.length - 1 ||
    hasTopLevel(spec, SPECIALS.replace('@', '').replace('\\', '')) ||
    /\s/.test(spec)
  )
    return { problem: PROBLEMS.form };
  const local = spec.slice(0, at);
  const rawDomain = spec.slice(at + 1);
  if (local.includes('@')) return { problem: PROBLEMS.form };
  const dotAtom = !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
  const domain = domainToASCII(rawDomain);
  const address = `${local}@${domain}`;
  if (
    !dotAtom ||
    !SENDABLE_LOCAL.test(local) ||
    !domain ||
    !SENDABLE_DOMAIN.test(domain) ||
    address.length > MAX_ADDRESS
  )
    return { problem: PROBLEMS.sendable };
  return name ? { name, address } : { address };
}

/**
 * The bare address of a field, lower-cased: the key for suppression, idempotency, the `to` filter and
 * bounce matching. Text that is not a mailbox (a filter value) is only trimmed and lower-cased.
 */
export function bareAddress(field: string): string {
  const parsed = parseMailbox(field);
  return ('address' in parsed ? parsed.address : field.trim()).toLowerCase();
}

/**
 * RFC 2047 encoded-words (UTF-8, base64): 45 bytes of text per word keep each within the 75-character
 * limit, and a character is never split between words (decoders join adjacent words).
 */
function encodedWords(text: string): string {
  const words: string[] = [''];
  for (const char of text) {
    if (Buffer.byteLength((words.at(-1) ?? '') + char) > 45) words.push('');
    words[words.length - 1] += char;
  }
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join(' ');
}

/** Characters a display name may hold without quoting (RFC 5322 atext and spaces). */
const ATOMS = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/;
const ASCII = /^[\x20-\x7e]*$/;

/**
 * The field as SES takes it in FromEmailAddress, Destination and ReplyToAddresses: 7-bit ASCII, a
 * non-ASCII display name as RFC 2047 encoded-words (base64, at most 75 characters each), an ASCII name
 * quoted when it holds specials such as a comma, the domain in punycode.
 */
export function headerMailbox(field: string): string {
  const parsed = parseMailbox(field);
  if (!('address' in parsed)) return field;
  const { name, address } = parsed;
  if (!name) return address;
  const phrase = !ASCII.test(name)
    ? encodedWords(name)
    : ATOMS.test(name)
      ? name
      : `"${name.replace(/[\\"]/g, '\\$&')}"`;
  return `${phrase} <${address}>`;
}

/** One mailbox per field, for `from`, `replyTo`, `to`, each of `cc`/`bcc` and a project's sender; the text is kept as given. */
export const mailbox = v.pipe(
  v.string(),
  v.description(
    'One address, bare or with a display name: `Name <address@example.com>`, `"Doe, Jane" <jane@example.com>` (RFC 5322; names may be non-ASCII). The address is what SES sends to: an ASCII dot-atom before the @ (no quotes, no comments) and a host name with a top-level domain.',
  ),
  v.metadata({ examples: ['Ann Lee <ann@example.com>'] }),
  v.trim(),
  v.maxLength(MAX_MAILBOX_FIELD),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const parsed = parseMailbox(dataset.value);
    if ('problem' in parsed) addIssue({ message: parsed.problem });
  }),
);

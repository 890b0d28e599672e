import * as v from 'valibot';
import { isoDateTime, maxChars, uuid } from '../../kernel/api/schemas.js';
import { plainLine } from '../../kernel/mail/plain-line.js';
import { EVENT_NAMES, FILTER_PREFIXES } from './catalog.js';

export const eventName = v.picklist(EVENT_NAMES);
/** A catalog event type, or every type under a prefix (`email.*`, `webhook.endpoint.*`). */
export const eventFilter = v.picklist([...EVENT_NAMES, ...FILTER_PREFIXES]);
export type EventFilter = v.InferOutput<typeof eventFilter>;
export const events = v.pipe(
  v.array(eventFilter),
  v.minLength(1, 'Choose at least one event, or leave events out for all.'),
);
export const format = v.picklist(['json', 'chat']);
export const description = v.pipe(v.string(), maxChars(500), plainLine, v.metadata({ examples: ['Order sync'] }));
export const rateLimitPerSecond = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(1),
  v.maxValue(1000),
  v.description(
    'At most this many deliveries a second to this endpoint; deliveries above it wait (they are not failed). Leave out (or PATCH null) for no limit.',
  ),
);
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
/** A URL's authority: after `scheme://`, before its path, query or fragment. */
const authorityOf = (s: string) => /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(s)?.[1] ?? '';
export const url = v.pipe(
  v.string(),
  v.maxLength(2048),
  // A URL parser drops tabs and line breaks, so the endpoint stored would not be the one called.
  plainLine,
  v.url(),
  v.metadata({ examples: ['https://example.com/webhooks/helpdesk'] }),
  v.check((s) => /^https?:\/\//i.test(s), 'The URL must use http or https.'),
  // What a URL parser would encode or read its own way (a space, a backslash before an `@`) makes the
  // endpoint called differ from the one stored and shown: only RFC 3986's characters, as `format: uri` says.
  v.regex(
    URI_CHARACTERS,
    'Write the URL as RFC 3986 does: ASCII without spaces or backslashes, an international host in punycode, other characters percent-encoded.',
  ),
  // Any `@` in the authority, even an empty `:@`, is a user part.
  v.check((s) => !authorityOf(s).includes('@'), 'The URL must not carry credentials.'),
  v.check((s) => !URL.canParse(s) || new URL(s).port !== '0', 'The port must be from 1 to 65535.'),
);

export const webhook = v.object({
  id: uuid,
  url: v.string(),
  events: v.array(eventFilter),
  format,
  description: v.nullable(v.string()),
  rateLimitPerSecond: v.nullable(v.number()),
  enabled: v.boolean(),
  secretFingerprint: v.pipe(v.string(), v.description('A short, non-secret name of the current signing secret')),
  previousSecrets: v.pipe(
    v.array(v.object({ fingerprint: v.string(), validUntil: isoDateTime })),
    v.description('Secrets a rotation keeps signing beside the current one until `validUntil`'),
  ),
  failingSince: v.pipe(v.nullable(isoDateTime), v.description('First failed attempt since the last success')),
  disabledReason: v.nullable(v.string()),
  createdAt: isoDateTime,
});
export const webhookWithSecret = v.object({ ...webhook.entries, secret: v.string() });

import * as v from 'valibot';
import { maxChars, noControls, patchBody, unicodeText } from '../../kernel/api/schemas.js';
import { plainLine } from '../../kernel/mail/plain-line.js';
import { contrastWithWhite } from './contrast.js';
import { FOOTER_MAX, HANDLE_RE, MIN_CONTRAST, RESERVED_HANDLES } from './values.js';

const handle = v.pipe(
  v.string(),
  v.maxLength(40),
  v.regex(
    HANDLE_RE,
    'Use 3 to 40 lower-case letters, digits and single dashes, starting and ending with a letter or digit',
  ),
  v.check((h) => !RESERVED_HANDLES.has(h), 'This handle is reserved'),
  v.metadata({ examples: ['acme-help'] }),
);
const accentColor = v.pipe(
  v.string(),
  v.regex(/^#[0-9a-fA-F]{6}$/, 'Give a color as #rrggbb'),
  v.check(
    (c) => contrastWithWhite(c) >= MIN_CONTRAST,
    `The color must contrast at least ${MIN_CONTRAST}:1 with white (WCAG 2.2 AA), as it carries white text and colors links`,
  ),
  v.metadata({ examples: ['#1d4ed8'] }),
);
const logoUrl = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url(),
  v.check((u) => u.startsWith('https://'), 'The logo must be served over https'),
);
const footer = v.pipe(v.string(), v.maxLength(FOOTER_MAX));

/** PATCH /projects/{projectId}: the portal's settings, each optional; null clears one. */
export const portalSettingsPatch = patchBody(
  {
    enabled: v.optional(v.boolean()),
    handle: v.optional(v.nullable(handle)),
    logoUrl: v.optional(v.nullable(logoUrl)),
    accentColor: v.optional(v.nullable(accentColor)),
    footer: v.optional(v.nullable(footer)),
  },
  'Send at least one portal setting to change',
);

export const projectPatch = v.strictObject({ portal: portalSettingsPatch });
export type ProjectPatch = v.InferOutput<typeof projectPatch>;

/** A project's portal as the API shows it. */
export const portalView = v.object({
  enabled: v.boolean(),
  handle: v.nullable(v.string()),
  /** The help center's address; null without a handle. */
  url: v.nullable(v.string()),
  logoUrl: v.nullable(v.string()),
  accentColor: v.nullable(v.string()),
  footer: v.nullable(v.string()),
});

/** The request form's fields (urlencoded or multipart). */
export const portalRequest = v.object({
  email: v.pipe(
    v.string('Give your email address'),
    v.trim(),
    v.maxLength(254, 'At most 254 characters'),
    v.email('Give a valid email address'),
  ),
  // As the API's own ticket fields: names one line, the message without control characters but line breaks.
  name: v.optional(v.pipe(v.string(), maxChars(200), plainLine, unicodeText, v.trim())),
  subject: v.pipe(
    v.string('Give a subject'),
    maxChars(200),
    plainLine,
    unicodeText,
    v.trim(),
    v.minLength(1, 'Give a subject'),
  ),
  message: v.pipe(
    v.string('Write your message'),
    maxChars(10_000),
    noControls,
    unicodeText,
    v.trim(),
    v.minLength(1, 'Write your message'),
  ),
  website: v.optional(v.string()),
  file: v.optional(v.unknown()),
});
export type PortalRequestInput = v.InferOutput<typeof portalRequest>;

export const portalVote = v.object({ helpful: v.picklist(['yes', 'no']) });

import * as v from 'valibot';
import {
  depthWithin,
  integer,
  isoDateTime,
  jsonObject,
  MAX_JSON_DEPTH,
  maxChars,
  uuid,
} from '../../kernel/api/schemas.js';
import { ISSUE_STATUSES, LOG_LEVELS } from './values.js';

const DAY_MS = 86_400_000;
const MAX_CONTEXT_BYTES = 16 * 1024;

/** A stored scope is at most this long, so a longer `scope` filter is a mistake worth a 422. */
export const eventScope = v.pipe(v.string(), v.maxLength(200));
/** A release name: printable, no surrounding spaces (`1.4.2`, `web@2026.11.26`, a commit hash). */
export const releaseName = v.pipe(
  v.string(),
  v.regex(/^[^\s\p{Cc}](?:[^\p{Cc}]{0,198}[^\s\p{Cc}])?$/u, 'A release name: 1 to 200 printable characters'),
  v.metadata({ examples: ['1.4.2'] }),
);

export const logEventInput = v.strictObject({
  level: v.picklist(LOG_LEVELS),
  // Free text: characters, as the document's maxLength counts them (a scope and fingerprints, key-like, count code units).
  message: v.pipe(v.string(), v.minLength(1), maxChars(10_000)),
  scope: v.optional(eventScope),
  timestamp: v.optional(
    v.pipe(
      isoDateTime,
      // Judged only for a parseable value, so a bad one gets one message, not a false "future" too.
      v.check(
        (s) => Number.isNaN(Date.parse(s)) || Date.parse(s) <= Date.now() + DAY_MS,
        'Must be at most 24 hours in the future',
      ),
    ),
  ),
  stack: v.optional(v.pipe(v.string(), maxChars(50_000))),
  // The caller's object exactly as sent (a record schema would rebuild it, turning arrays into objects
  // and dropping keys such as __proto__).
  context: v.optional(
    v.pipe(
      jsonObject,
      // Runs even when the depth check failed (valibot goes on): a too-deep value is that check's to report.
      v.check(
        (o) => !depthWithin(o, MAX_JSON_DEPTH) || Buffer.byteLength(JSON.stringify(o)) <= MAX_CONTEXT_BYTES,
        'Must be at most 16 KB serialized',
      ),
    ),
  ),
  fingerprint: v.optional(
    v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), v.minLength(1), v.maxLength(20)),
  ),
  /** The version of the app that logged it (a tag, a version, a commit): issues record their first and last. */
  release: v.optional(releaseName),
  /** The deployment it ran in (production, staging…): a tag kept on the event. */
  environment: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[\w.-]{1,64}$/, 'Up to 64 letters, digits, dots, dashes or underscores'),
      v.metadata({ examples: ['production'] }),
    ),
  ),
});

export const logEvent = v.object({
  id: uuid,
  level: v.picklist(LOG_LEVELS),
  message: v.string(),
  scope: v.nullable(v.string()),
  timestamp: v.string(),
  fingerprint: v.string(),
  issueId: uuid,
  stack: v.nullable(v.string()),
  context: v.nullable(v.record(v.string(), v.unknown())),
  release: v.nullable(v.string()),
  environment: v.nullable(v.string()),
  receivedAt: v.string(),
});

export const logIssue = v.object({
  id: uuid,
  fingerprint: v.string(),
  title: v.string(),
  level: v.picklist(LOG_LEVELS),
  scope: v.nullable(v.string()),
  status: v.picklist(ISSUE_STATUSES),
  regressed: v.boolean(),
  count: integer,
  firstSeenAt: v.string(),
  lastSeenAt: v.string(),
  lastEventId: uuid,
  groupingVersion: integer,
  mergedInto: v.nullable(uuid),
  /** The releases of its first and latest events (null until an event names one). */
  firstRelease: v.nullable(v.string()),
  lastRelease: v.nullable(v.string()),
  /** Resolved in this release (`next`: the one after `lastRelease` at the time): older releases' events do not reopen it. */
  resolvedIn: v.nullable(v.string()),
  /** The release whose event reopened it, when it regressed. */
  regressedIn: v.nullable(v.string()),
  /** Alert rules stay quiet for this issue until then (null: not snoozed, or the snooze is over). */
  snoozedUntil: v.nullable(isoDateTime),
});

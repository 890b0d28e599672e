import { hash } from './fingerprint.js';
import { applyClasses, EMAIL, IPV6, type TokenClass, URL_CLASS, UUID } from './tokens.js';
import type { LogLevel } from './values.js';

/**
 * Grouping version 1's message rule, kept so that issues it made keep their events after the upgrade
 * (the consumer lands a new template's events in the version-1 issue of its first event when that
 * issue exists). Remove once no project has version-1 issues that still receive events.
 */
const V1_CLASSES: TokenClass[] = [
  EMAIL,
  URL_CLASS,
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, '<ip>'],
  IPV6,
  UUID,
  [/\b0x[\da-f]+\b|\b(?=[\da-f]*\d)(?=[\da-f]*[a-f])[\da-f]{8,}\b/gi, '<hex>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/gi, '<date>'],
  [/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g, '<time>'],
  [/(?<![a-z\d])\d+(?:\.\d+)?/gi, '<num>'],
  [/(?<!\w)(?:"[^"\n]*"|'[^'\n]*'|`[^`\n]*`)(?!\w)/g, '<str>'],
];

/** The fingerprint version 1 gave a message-grouped event: scope, level and its parameterized message. */
export const fingerprintV1 = (event: { level: LogLevel; message: string; scope?: string }) =>
  hash(['message', event.scope ?? '', event.level, applyClasses(V1_CLASSES, event.message)]);

import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { LogLevel } from './levels.js';

/**
 * Variable parts of a message, replaced in this order: earlier kinds contain text that later ones
 * would otherwise half-replace (a URL holds numbers, a UUID holds hex runs, a date holds numbers).
 */
const PARAMETERS: [RegExp, string | ((match: string) => string)][] = [
  // The local part allows RFC 5322's characters except quotes, which far more often delimit an address.
  [/[\w.!#$%&*+/=?^{|}~-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  [/\b[a-z][a-z\d+.-]*:\/\/[^\s"'`<>]+/gi, '<url>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, '<ip>'],
  // IPv6 candidates are checked by a parser: a time like 12:30:45 looks similar but is not one.
  [/(?<![\w:])(?:[\da-f]{0,4}:){2,7}[\da-f]{0,4}(?![\w:])/gi, (m) => (ipaddr.IPv6.isValid(m) ? '<ip>' : m)],
  [/\b[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}\b/gi, '<uuid>'],
  // Hex ids and hashes: 0x-prefixed, or 8+ hex characters mixing digits and letters (not plain words or numbers).
  [/\b0x[\da-f]+\b|\b(?=[\da-f]*\d)(?=[\da-f]*[a-f])[\da-f]{8,}\b/gi, '<hex>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/gi, '<date>'],
  [/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g, '<time>'],
  // Digits after a letter are part of a name (http2, utf8, v8); digits before one carry a unit (250ms).
  [/(?<![a-z\d])\d+(?:\.\d+)?/gi, '<num>'],
  [/(?<!\w)(?:"[^"\n]*"|'[^'\n]*'|`[^`\n]*`)(?!\w)/g, '<str>'],
];

/** The message with its variable parts replaced by placeholders: the issue title. */
export function parameterize(message: string): string {
  return PARAMETERS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement as string), message);
}

const MAX_FRAMES = 5;

/** V8 (`at fn (file:1:2)`, `at file:1:2`) and Firefox/Safari (`fn@file:1:2`) frame lines. */
const V8_FRAME = /^\s*at\s+(?:(.*?)\s+\()?(.+?)(?::\d+)?(?::\d+)?\)?\s*$/;
const GECKO_FRAME = /^\s*([^\s@]*)@(\S+?):\d+(?::\d+)?\s*$/;

// A location without a path (`native`, `<anonymous>`, `index 0`) is not a file of the app.
const isInApp = (file: string) =>
  /[/\\.]/.test(file) && !file.includes('node_modules') && !file.startsWith('node:') && !file.startsWith('internal/');

/** The top in-app frames of a stack as `function file`, line and column numbers dropped. */
export function inAppFrames(stack: string): string[] {
  const frames: string[] = [];
  for (const line of stack.split('\n')) {
    const m = V8_FRAME.exec(line) ?? GECKO_FRAME.exec(line);
    if (!m) continue;
    const file = m[2]!.replace(/^file:\/\//, '').replace(/[?#].*$/, '');
    if (!isInApp(file)) continue;
    const fn = (m[1] ?? '').replace(/^async\s+/, '').trim() || '<anonymous>';
    frames.push(`${fn} ${file}`);
    if (frames.length === MAX_FRAMES) break;
  }
  return frames;
}

export interface FingerprintInput {
  level: LogLevel;
  message: string;
  scope?: string;
  stack?: string;
  fingerprint?: string[];
}

const hash = (parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);

/**
 * The grouping key of an event: the caller's fingerprint when given; else the scope and the top
 * in-app stack frames; else the scope, level and parameterized message.
 */
export function fingerprintOf(event: FingerprintInput): { fingerprint: string; title: string } {
  const title = parameterize(event.message);
  if (event.fingerprint?.length) return { fingerprint: hash(['custom', ...event.fingerprint]), title };
  const frames = event.stack ? inAppFrames(event.stack) : [];
  if (frames.length) return { fingerprint: hash(['stack', event.scope ?? '', ...frames]), title };
  return { fingerprint: hash(['message', event.scope ?? '', event.level, title]), title };
}

/**
 * The issue id of a fingerprint in one project and environment, UUID v5 style: events carry it from
 * ingestion on, before the grouping consumer has written the issue.
 */
export function issueIdFor(projectId: string, env: string, fingerprint: string): string {
  const b = createHash('sha1').update(`${projectId}\n${env}\n${fingerprint}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

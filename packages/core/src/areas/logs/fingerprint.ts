import { createHash } from 'node:crypto';
import { parameterize } from './tokens.js';
import type { LogLevel } from './values.js';

export { parameterize };

const MAX_FRAMES = 5;

/** Firefox/Safari frame lines (`fn@file:1:2`). */
const GECKO_FRAME = /^\s*([^\s@]*)@(\S+?):\d+(?::\d+)?\s*$/;
const V8_AT = /^\s*at\s+/;
const LINE_NUMBER = /:\d+$/;

/**
 * A V8 frame line (`at fn (file:1:2)`, `at file:1:2`) as [line, function, location], read in one pass:
 * the function is what stands before the first `(` that follows white space, the location what is
 * inside (or the whole rest), without a closing `)` and its line and column numbers.
 */
function v8Frame(line: string): [string, string | undefined, string] | undefined {
  const at = V8_AT.exec(line);
  if (!at) return undefined;
  const rest = line.slice(at[0].length).trimEnd();
  const paren = rest.search(/\s\(/);
  let fn: string | undefined;
  let location = rest;
  if (paren >= 0 && paren + 2 < rest.length) {
    fn = rest.slice(0, paren).trimEnd();
    location = rest.slice(paren + 2);
  }
  if (location.endsWith(')') && location.length > 1) location = location.slice(0, -1);
  for (let i = 0; i < 2; i++) {
    const number = LINE_NUMBER.exec(location);
    if (number && number.index > 0) location = location.slice(0, number.index);
  }
  return [line, fn, location];
}

// A location without a path (`native`, `<anonymous>`, `index 0`) is not a file of the app.
const isInApp = (file: string) =>
  /[/\\.]/.test(file) && !file.includes('node_modules') && !file.startsWith('node:') && !file.startsWith('internal/');

/** The top in-app frames of a stack as `function file`, line and column numbers dropped. */
export function inAppFrames(stack: string): string[] {
  const frames: string[] = [];
  for (const line of stack.split('\n')) {
    const m = v8Frame(line) ?? GECKO_FRAME.exec(line);
    if (!m) continue;
    const location = (m[2] ?? '').replace(/^file:\/\//, '');
    const query = location.search(/[?#]/);
    const file = query < 0 ? location : location.slice(0, query);
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

export const hash = (parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);

/** The grouping rules' version, kept on the issues they make (version 1 hashed the level, with older placeholders). */
export const GROUPING_VERSION = 2;

/**
 * The grouping key of an event: the caller's fingerprint when given; else the scope and the top
 * in-app stack frames; else the scope and parameterized message, whose template the consumer learns
 * (`learn`). The level is no part of it: one kind of event logged at two levels is one issue.
 */
export function fingerprintOf(event: FingerprintInput): { fingerprint: string; title: string; learn: boolean } {
  const title = parameterize(event.message);
  if (event.fingerprint?.length) return { fingerprint: hash(['custom', ...event.fingerprint]), title, learn: false };
  const frames = event.stack ? inAppFrames(event.stack) : [];
  if (frames.length) return { fingerprint: hash(['stack', event.scope ?? '', ...frames]), title, learn: false };
  return { fingerprint: hash(['message', event.scope ?? '', title]), title, learn: true };
}

/**
 * The issue id of a fingerprint in one project and environment, UUID v5 style: events carry it from
 * ingestion on, before the grouping consumer has written the issue.
 */
export function issueIdFor(projectId: string, env: string, fingerprint: string): string {
  const b = createHash('sha1').update(`${projectId}\n${env}\n${fingerprint}`).digest().subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

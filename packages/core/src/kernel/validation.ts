import * as v from 'valibot';

/**
 * Every valibot pipeline stops at its first failing action: a length limit then guards the parsing and
 * pattern checks after it (a 2 MB `to` would otherwise still reach the address parser). Set once for
 * the process, before any request or message is validated (config.ts imports this module, and every
 * handler factory reads the configuration first).
 */
v.setGlobalConfig({ abortPipeEarly: true });

/** At most this much of what a schema expects is named (a long picklist). */
const EXPECTED_MAX = 200;

/**
 * What a schema expects, in words: valibot's `Object` and `Array` as JSON names them, its union
 * notation `("a" | "b")` as `one of a, b` (values) or `string or null` (types).
 */
function expectedWords(expected: string | null): string {
  if (!expected) return 'another value';
  const named = expected.replace(/\bObject\b/g, 'an object').replace(/\bArray\b/g, 'an array');
  const options = (named.startsWith('(') && named.endsWith(')') ? named.slice(1, -1) : named).split(' | ');
  const values = options.every((o) => o.length > 1 && o.startsWith('"') && o.endsWith('"'));
  const words =
    options.length < 2
      ? named
      : values
        ? `one of ${options.map((o) => o.slice(1, -1)).join(', ')}`
        : `${options.slice(0, -1).join(', ')} or ${options.at(-1)}`;
  return words.length > EXPECTED_MAX ? `${words.slice(0, EXPECTED_MAX)}…` : words;
}

const counted = (n: unknown, unit: string) => (n === 1 ? unit.slice(0, -1) : unit);

/** Requirements of the length and value checks, as people read them. */
const LIMITS: Record<string, (limit: unknown, unit: string) => string> = {
  min_length: (n, unit) => `At least ${n} ${counted(n, unit)}`,
  max_length: (n, unit) => `At most ${n} ${counted(n, unit)}`,
  length: (n, unit) => `Exactly ${n} ${counted(n, unit)}`,
  non_empty: (_, unit) => `At least 1 ${counted(1, unit)}`,
  min_value: (n) => `At least ${n}`,
  max_value: (n) => `At most ${n}`,
  integer: () => 'Expected an integer',
};

/**
 * The message of an issue whose schema gives none: the service's own words, never the received value
 * (valibot's defaults quote it, so a 1 MB value would come back in the answer) nor library wording
 * such as "received undefined". Schemas that give a message keep it.
 */
export function defaultIssueMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema') {
    if (issue.received === 'undefined') return 'Required';
    if (issue.expected === 'never') return 'Unknown field';
    return `Expected ${expectedWords(issue.expected)}`;
  }
  const unit = typeof issue.input === 'string' ? 'characters' : 'items';
  const limit = LIMITS[issue.type];
  if (limit) return limit(issue.requirement, unit);
  return `Invalid ${issue.type.replaceAll('_', ' ')}`;
}

v.setGlobalMessage(defaultIssueMessage);

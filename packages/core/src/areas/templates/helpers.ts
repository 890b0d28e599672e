import type { HelperOptions } from 'handlebars';

/**
 * The helpers SendGrid's dynamic templates document, with their names and behaviour, so templates
 * written for SendGrid import and render unchanged. They never throw: like a missing variable, a
 * value of the wrong kind renders empty (or takes the `{{else}}` branch).
 */

/** SendGrid's truthiness: empty strings, 0, null, missing values and empty lists are false. */
const truthy = (v: unknown) =>
  !(
    v === undefined ||
    v === null ||
    v === false ||
    v === '' ||
    v === 0 ||
    Number.isNaN(v) ||
    (Array.isArray(v) && v.length === 0)
  );

const isPrimitive = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

/** Equal values, with types coerced between primitives (`3` equals `"3"`), as SendGrid documents. */
const equal = (a: unknown, b: unknown) => a === b || (isPrimitive(a) && isPrimitive(b) && String(a) === String(b));

/** Numbers compare as numbers (numeric strings too); two other strings compare as text; anything else does not compare. */
function compare(a: unknown, b: unknown): number | undefined {
  const x = typeof a === 'string' && a.trim() !== '' ? Number(a) : a;
  const y = typeof b === 'string' && b.trim() !== '' ? Number(b) : b;
  if (typeof x === 'number' && typeof y === 'number' && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/** A block call renders `fn` or `inverse` (`{{else}}`); a sub-expression `(equals a b)` gives the boolean. */
function branch(this: unknown, condition: boolean, options: HelperOptions) {
  if (typeof options?.fn !== 'function') return condition;
  return condition ? options.fn(this) : options.inverse(this);
}

/** The positional arguments of a helper call (Handlebars passes the options object last). */
const argsOf = (args: unknown[]) => ({ params: args.slice(0, -1), options: args[args.length - 1] as HelperOptions });

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** An epoch (seconds; milliseconds above 10^11) or an ISO 8601 text; undefined when it is neither. */
function toDate(value: unknown): Date | undefined {
  const epoch =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())
        ? Number(value)
        : undefined;
  const date =
    epoch !== undefined
      ? new Date(epoch > 1e11 ? epoch : epoch * 1000)
      : typeof value === 'string'
        ? new Date(value)
        : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** `-0800`, `-08:00`, `+05:30`, `Z` -> minutes east of UTC. */
function offsetMinutes(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.trim().toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(value.trim());
  if (!m) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** SendGrid's tokens (moment's subset); `[text]` is kept literally. */
/** Format tokens, longest first where one begins another (the order the scan tries them in). */
const TOKENS = [
  'YYYY',
  'YY',
  'MMMM',
  'MMM',
  'MM',
  'M',
  'DD',
  'D',
  'dddd',
  'ddd',
  'hh',
  'h',
  'HH',
  'H',
  'mm',
  'm',
  'ss',
  's',
  'A',
  'ZZ',
  'Z',
];

/**
 * The format with each token replaced and `[text]` kept as text, in one pass: a `[` with no `]` after
 * it is an ordinary character (a regular expression would look for the `]` again from every `[`).
 */
function formatTokens(format: string, values: Record<string, string>): string {
  let out = '';
  let closeAfter = format.indexOf(']');
  for (let i = 0; i < format.length; ) {
    if (format[i] === '[') {
      if (closeAfter >= 0 && closeAfter < i) closeAfter = format.indexOf(']', i);
      if (closeAfter > i) {
        out += format.slice(i + 1, closeAfter);
        i = closeAfter + 1;
        continue;
      }
    }
    const token = TOKENS.find((t) => format.startsWith(t, i));
    out += token ? (values[token] ?? token) : format.charAt(i);
    i += token ? token.length : 1;
  }
  return out;
}

export function formatDate(value: unknown, format: unknown, offset?: unknown): string {
  const date = toDate(value);
  if (!date) return '';
  if (typeof format !== 'string') return date.toISOString();
  const minutes = offsetMinutes(offset) ?? 0;
  // Shift the instant so its UTC fields read as the wall clock at the offset.
  const d = new Date(date.getTime() + minutes * 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hours12 = d.getUTCHours() % 12 || 12;
  const month = MONTHS[d.getUTCMonth()] ?? '';
  const day = DAYS[d.getUTCDay()] ?? '';
  const values: Record<string, string> = {
    YYYY: String(d.getUTCFullYear()),
    YY: pad(d.getUTCFullYear() % 100),
    MMMM: month,
    MMM: month.slice(0, 3),
    MM: pad(d.getUTCMonth() + 1),
    M: String(d.getUTCMonth() + 1),
    DD: pad(d.getUTCDate()),
    D: String(d.getUTCDate()),
    dddd: day,
    ddd: day.slice(0, 3),
    hh: pad(hours12),
    h: String(hours12),
    HH: pad(d.getUTCHours()),
    H: String(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    m: String(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
    s: String(d.getUTCSeconds()),
    A: d.getUTCHours() < 12 ? 'AM' : 'PM',
    ZZ: `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`,
    Z: `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`,
  };
  return formatTokens(format, values);
}

/** `{{insert name "default=Customer"}}`, `{{insert name "Customer"}}` or `{{insert name default="Customer"}}`. */
function insert(value: unknown, ...rest: unknown[]) {
  const { params, options } = argsOf(rest);
  if (value !== undefined && value !== null && value !== '') return value;
  const given = options?.hash?.default ?? params[0];
  if (typeof given !== 'string') return given ?? '';
  return given.startsWith('default=') ? given.slice('default='.length) : given;
}

export const sendGridHelpers = {
  equals(this: unknown, a: unknown, b: unknown, options: HelperOptions) {
    return branch.call(this, equal(a, b), options);
  },
  notEquals(this: unknown, a: unknown, b: unknown, options: HelperOptions) {
    return branch.call(this, !equal(a, b), options);
  },
  and(this: unknown, ...args: unknown[]) {
    const { params, options } = argsOf(args);
    return branch.call(this, params.length > 0 && params.every(truthy), options);
  },
  or(this: unknown, ...args: unknown[]) {
    const { params, options } = argsOf(args);
    return branch.call(this, params.some(truthy), options);
  },
  greaterThan(this: unknown, a: unknown, b: unknown, options: HelperOptions) {
    return branch.call(this, (compare(a, b) ?? 0) > 0, options);
  },
  lessThan(this: unknown, a: unknown, b: unknown, options: HelperOptions) {
    return branch.call(this, (compare(a, b) ?? 0) < 0, options);
  },
  /** Characters of a string or items of a list; 0 for anything else. */
  length: (value: unknown) => (typeof value === 'string' || Array.isArray(value) ? value.length : 0),
  formatDate(value: unknown, ...rest: unknown[]) {
    const { params } = argsOf(rest);
    return formatDate(value, params[0], params[1]);
  },
  insert,
};

import * as v from 'valibot';
import { plainLine } from '../mail/plain-line.js';
import { wellFormed } from '../text.js';

/** Shared valibot building blocks for parameters; areas compose their own schemas from these. */
/** A UUID in any case, answered in lower case: ids are stored and compared as the service writes them. */
export const uuid = v.pipe(v.string(), v.uuid(), v.toLowerCase());
export const integer = v.pipe(v.number(), v.integer());

/**
 * A limit in characters as people and JSON Schema's `maxLength` count them (Unicode code points), for text
 * the spec limits in characters (a message of 10,000, a subject of 200): valibot's `maxLength` counts
 * UTF-16 code units, so an emoji counted twice. Values that become part of a DynamoDB key keep
 * `maxLength`, whose code units bound their bytes (decisions.md). The OpenAPI document states it as
 * `maxLength` (openapi/schema.ts).
 */
export const maxChars = (max: number) => ({
  ...v.check<string, string>(
    (s) => s.length <= max || characterCount(s) <= max,
    `At most ${max} ${max === 1 ? 'character' : 'characters'}`,
  ),
  type: 'max_chars' as const,
  max,
});

function characterCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * A name or title a person gives (an article's title, a category's, a rule's): one trimmed line of 1 to
 * `max` characters. Control characters and line breaks are refused, as in subjects and tags: they would
 * reach pages, mail and the console raw (a NUL in a help center heading). Checked before the trim, so
 * a trailing line break is refused as the OpenAPI pattern says, not trimmed away.
 */
export const lineText = (max: number, example = 'Getting started') =>
  v.pipe(
    v.string(),
    maxChars(max),
    plainLine,
    unicodeText,
    v.trim(),
    v.minLength(1),
    v.metadata({ examples: [example] }),
  );

/** No lone surrogate (JSON can spell one, `"\ud800"`): it cannot be stored as UTF-8 text, mailed or shown. */
export const unicodeText = v.check(wellFormed, 'Valid Unicode text');

/** Text of several lines (a message, a body): tabs and line breaks are kept, other control characters refused. */
export const NO_CONTROLS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
export const noControls = v.regex(NO_CONTROLS, 'Control characters other than tabs and line breaks are not allowed');
/** A body of several lines: 1 to `max` characters once trimmed, `noControls`. */
export const bodyText = (max: number, options: { required?: string; example?: string } = {}) =>
  v.pipe(
    v.string(),
    maxChars(max),
    noControls,
    unicodeText,
    v.trim(),
    v.minLength(1, options.required),
    v.metadata({ examples: [options.example ?? 'Thanks, that fixed it.'] }),
  );

/** The paging fields every list answers beside its rows. */
export const pageMeta = { total: integer, page: integer, limit: integer };

/** A query parameter holding an integer, with bounds and a default. */
export const intQuery = <D extends number | undefined = undefined>(opts: {
  default?: D;
  min?: number;
  max?: number;
}) => {
  const min = opts.min ?? Number.MIN_SAFE_INTEGER;
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  return v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.regex(/^-?\d+$/, 'Expected an integer'),
        v.transform(Number),
        v.integer(),
        v.minValue(min),
        v.maxValue(max),
      ),
      // Typed so that a parameter with a default reads as a number, never undefined.
      (opts.default === undefined ? undefined : String(opts.default)) as D extends number ? string : undefined,
    ),
    // The document shows the integer and its bounds (the string pattern is how the query arrives).
    v.metadata({ type: 'integer', pattern: undefined, minimum: min, maximum: max, default: opts.default }),
  );
};

/** `true`/`1` and `false`/`0`, as the spec's awaitingReply accepts. */
export const boolQuery = (fallback: boolean) =>
  v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0']),
      v.transform((s) => s === 'true' || s === '1'),
    ),
    fallback ? 'true' : 'false',
  );

/**
 * A comma-separated list in a query (`level=error,fatal`): each item matches `item` (a regular
 * expression source, anchored here), spaces around items allowed; one pattern, stated in the document
 * as it is checked (it is linear: items are separated by commas they cannot contain).
 */
export const listQuery = (item: string, example: string, message: string, options: { lowerCase?: boolean } = {}) => {
  const pattern = new RegExp(`^ *(?:${item}) *(?:, *(?:${item}) *)*$`);
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(pattern, message),
      v.metadata({ pattern: pattern.source, examples: [example] }),
      v.transform((s) => [...new Set((options.lowerCase ? s.toLowerCase() : s).split(',').map((x) => x.trim()))]),
    ),
  );
};

/** A comma-separated list of allowed values (`level=error,fatal`). */
export const csvQuery = <const T extends readonly [string, ...string[]]>(values: T) =>
  listQuery(
    values.join('|'),
    values[0],
    `Expected one or more of ${values.join(', ')}, separated by commas`,
  ) as ReturnType<typeof listQuery> & v.GenericSchema<string | undefined, T[number][] | undefined>;

/** A real calendar day (2026-02-30 parses in JavaScript, as 2 March). */
const isCalendarDay = (s: string) => {
  const t = Date.parse(`${s.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s.slice(0, 10);
};

/**
 * An ISO 8601 date-time with a zone (`2026-01-31T10:00:00Z`) naming an instant that exists: valibot's
 * format alone takes 2026-02-30 and offsets such as `+05` that Date.parse cannot read. The one schema
 * for every date-time, in bodies, queries and responses.
 */
export const isoDateTime = v.pipe(
  v.string(),
  v.isoTimestamp('Expected an ISO 8601 date-time with a time zone'),
  // Judged only once the format holds, so a malformed value gets one message.
  v.check(
    (s) => !v.ISO_TIMESTAMP_REGEX.test(s) || (!Number.isNaN(Date.parse(s)) && isCalendarDay(s)),
    'Expected a date and time that exist on the calendar',
  ),
);

/** An ISO date (`2026-01-31`) that exists on the calendar. */
export const isoDate = v.pipe(
  v.string(),
  v.isoDate('Expected an ISO 8601 date'),
  v.check(isCalendarDay, 'Expected a date that exists on the calendar'),
);

/** A date (a whole UTC day) or a date-time in a query string (`dateFrom`, `dateTo`). */
export const dateQuery = v.optional(
  v.pipe(
    v.string(),
    v.check(
      (s) => v.is(isoDate, s) || v.is(isoDateTime, s),
      'Expected an ISO date or a date-time with a time zone, that exists on the calendar',
    ),
    v.metadata({ anyOf: [{ format: 'date' }, { format: 'date-time' }], examples: ['2026-01-31'] }),
  ),
);

export const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype;

/** Nesting a caller's JSON may have; deeper values would overflow recursive serializers. */
export const MAX_JSON_DEPTH = 32;

/** Every value in a parsed JSON value with its depth, walked without recursion (it may be arbitrarily deep), stopping below `max`. */
function* jsonNodes(value: unknown, max: number): Generator<[unknown, number]> {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    yield top;
    const [node, depth] = top;
    if (typeof node === 'object' && node !== null && depth <= max)
      for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
}

/** Whether a parsed JSON value nests at most `max` deep. */
export const depthWithin = (value: unknown, max: number) => {
  for (const [node, depth] of jsonNodes(value, max))
    if (typeof node === 'object' && node !== null && depth > max) return false;
  return true;
};

/** Whether every number is one a double holds: JSON.parse reads `1e400` as Infinity, which would be stored as null. */
const finiteNumbers = (value: unknown) => {
  for (const [node] of jsonNodes(value, MAX_JSON_DEPTH))
    if (typeof node === 'number' && !Number.isFinite(node)) return false;
  return true;
};

/** A JSON object passed through as sent (arrays and null refused), documented as `type: object`. */
export const jsonObject = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'Expected a JSON object'),
  v.check((o) => depthWithin(o, MAX_JSON_DEPTH), `Nested deeper than ${MAX_JSON_DEPTH} levels`),
  v.check((o) => finiteNumbers(o), 'Numbers must fit a double (1e400 does not): send larger ones as strings'),
  // to-json-schema spreads metadata into the generated schema: this is what the OpenAPI document shows.
  v.metadata({ type: 'object' }),
);

/**
 * The highest `page` any list takes: page x limit stays far below DynamoDB's 32-bit Limit, and deeper
 * offsets would read (and pay for) every row before them. Tickets go further with their cursor.
 */
export const MAX_PAGE = 10_000;

/** The common list rules: 1 <= page <= MAX_PAGE (default 1), 1 <= limit <= max (default 25). */
export const pageQuery = (opts: { defaultLimit?: number; maxLimit?: number } = {}) => ({
  page: intQuery({ default: 1, min: 1, max: MAX_PAGE }),
  limit: intQuery({ default: opts.defaultLimit ?? 25, min: 1, max: opts.maxLimit ?? 100 }),
});

export const errorBody = v.object({
  error: v.object({
    code: v.string(),
    message: v.string(),
    details: v.optional(v.record(v.string(), v.unknown())),
  }),
});

/** Characters no header-like or map value may carry: controls and the Unicode line separators. */
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

/**
 * A JSON object of string values (metadata, headers): arrays and null refused, every key kept as sent,
 * values free of control characters; at most `maxKeys` keys.
 */
/** The longest value of a string map unless it says otherwise. */
export const MAP_VALUE_MAX = 1000;
/** `key`: what every key must match, and how the refusal says it (never the pattern itself). */
export const stringMap = (opts: { maxKeys: number; maxValue?: number; key?: { pattern: RegExp; says: string } }) =>
  v.pipe(
    jsonObject,
    v.metadata({ additionalProperties: { type: 'string' }, maxProperties: opts.maxKeys }),
    v.check((o) => Object.keys(o).length <= opts.maxKeys, `At most ${opts.maxKeys} keys`),
    // JavaScript treats this key as the object's prototype wherever it is copied: never data.
    v.check((o) => !Object.hasOwn(o, '__proto__'), 'The key __proto__ is not allowed'),
    v.check((o) => Object.values(o).every((x) => typeof x === 'string'), 'Every value must be a string'),
    v.check(
      (o) =>
        Object.values(o).every(
          (x) => typeof x !== 'string' || (!CONTROL.test(x) && x.length <= (opts.maxValue ?? MAP_VALUE_MAX)),
        ),
      `Values must be at most ${opts.maxValue ?? MAP_VALUE_MAX} characters without control characters or line breaks`,
    ),
    v.check((o) => !opts.key || Object.keys(o).every((k) => opts.key?.pattern.test(k)), opts.key?.says ?? ''),
    v.transform((o) => o as Record<string, string>),
  );

/** A file part as the multipart parser hands it over. */
export const filePart = v.object(
  {
    filename: v.string(),
    mimetype: v.string(),
    encoding: v.string(),
    truncated: v.boolean(),
    content: v.custom<Buffer>((x) => Buffer.isBuffer(x), 'Expected a file'),
  },
  'A file part named file is required',
);

/**
 * A PATCH body: the fields it may change, at least one of them (`minProperties: 1` in the document,
 * `message` when none is sent).
 */
export function patchBody<E extends v.ObjectEntries>(entries: E, message: string) {
  const fields = v.strictObject(entries);
  return v.pipe(
    fields,
    v.check((body: v.InferOutput<typeof fields>) => Object.keys(body).length > 0, message),
    v.metadata({ minProperties: 1 }),
  );
}

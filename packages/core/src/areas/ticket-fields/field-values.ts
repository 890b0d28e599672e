import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { unicodeText } from '../../kernel/api/schemas.js';
import { env } from '../../kernel/config.js';
import { put, remove, update, type WriteItem } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantKey } from '../../kernel/tenant.js';
import type { FieldDef } from './definitions.js';
import { TicketField } from './entities.js';
import { EMAIL_VALUE_MAX, type FieldType, TEXT_VALUE_MAX, URL_VALUE_MAX } from './values.js';

/** A stored value: text, url, email, select, date and datetime are strings; multi-select a list. */
export type FieldValue = string | number | boolean | string[];
export type FieldValues = Record<string, FieldValue>;

const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
/** A calendar day that exists (2026-02-30 does not). */
export const realDate = (s: string) => DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/**
 * An ISO 8601 time with its offset, on a day that exists, between the years 0 and 9999 once in UTC
 * (so the text order is the time order); answered as UTC (`toISOString()`), undefined otherwise.
 */
export function utcTime(s: string): string | undefined {
  if (s.length > 40 || !v.is(v.pipe(v.string(), v.isoTimestamp()), s) || !realDate(s.slice(0, 10))) return undefined;
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) return undefined;
  const utc = new Date(ms).toISOString();
  return /^\d{4}-/.test(utc) ? utc : undefined;
}

/**
 * A number DynamoDB and the document client store exactly: finite, within the safe integers, and not so
 * close to zero that it underflows (DynamoDB keeps 38 digits, down to 1e-130).
 */
const storableNumber = (n: number) =>
  Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= 1e-100);
const NUMBER_RULE = `A number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} (0 or at least 1e-100 from it)`;
const text = (max: number) => v.pipe(v.string(), v.maxLength(max), unicodeText);

/** The schema of one type's values (options from the definition for the selects). */
function schemaOf(def: FieldDef): v.GenericSchema<unknown, FieldValue> {
  const options = def.options ?? [];
  switch (def.type) {
    case 'text':
      return v.pipe(text(TEXT_VALUE_MAX), v.trim(), v.minLength(1));
    case 'number':
      return v.pipe(v.number(), v.check(storableNumber, NUMBER_RULE));
    case 'boolean':
      return v.boolean();
    case 'date':
      return v.pipe(v.string(), v.check(realDate, 'A date as YYYY-MM-DD, a day that exists'));
    case 'datetime':
      return v.pipe(
        v.string(),
        v.check(
          (s) => utcTime(s) !== undefined,
          'A date and time as ISO 8601 with its offset (+hh:mm or Z), years 0 to 9999',
        ),
        // One spelling per instant, so equal times are equal values (filters, the index).
        v.transform((s) => utcTime(s) ?? s),
      );
    case 'url':
      return v.pipe(
        text(URL_VALUE_MAX),
        v.url(),
        v.check((u) => /^https?:\/\//i.test(u), 'An http or https URL'),
      );
    case 'email':
      return v.pipe(text(EMAIL_VALUE_MAX), v.trim(), v.email(), v.toLowerCase());
    case 'select':
      return v.picklist(options, `One of: ${options.join(', ')}`);
    case 'multi-select':
      // Repeats collapse before anything counts them; what is left is at most every option once.
      return v.pipe(
        v.array(v.picklist(options, `Each one of: ${options.join(', ')}`)),
        v.transform((list) => [...new Set(list)]),
      );
  }
}

const issue = (key: string, message: string) => ({ field: `customFields.${key}`, in: 'body' as const, message });

/**
 * A write's `customFields` checked against the project's definitions: unknown keys and values of the
 * wrong type are 422 naming `customFields.<key>`; null removes a value (on update). On create, `required`
 * fields must be given (`requireAll`). Answers the ticket's values after the write.
 */
export function checkValues(
  defs: readonly FieldDef[],
  given: Record<string, unknown> | undefined,
  current: FieldValues,
  requireAll: boolean,
): FieldValues {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const next: FieldValues = { ...current };
  const problems: ReturnType<typeof issue>[] = [];
  for (const [key, value] of Object.entries(given ?? {})) {
    const def = byKey.get(key);
    if (!def) {
      problems.push(issue(key, 'No ticket field of this project has this key'));
      continue;
    }
    if (value === null) {
      delete next[key];
      continue;
    }
    const parsed = v.safeParse(schemaOf(def), value);
    if (!parsed.success) problems.push(issue(key, `${def.label} (${def.type}): ${parsed.issues[0].message}`));
    // A multi-select with nothing chosen holds no value.
    else if (Array.isArray(parsed.output) && parsed.output.length === 0) delete next[key];
    else next[key] = parsed.output;
  }
  if (requireAll)
    for (const def of defs)
      if (def.required && next[def.key] === undefined) problems.push(issue(def.key, `${def.label} is required`));
  if (problems.length) throw errors.validation(problems);
  return next;
}

/**
 * A value as a sort key: numbers as the bits of their float64 made to sort in numeric order, dates and
 * times as written (ISO order), everything else URI-encoded (no `|`, so a value is never the prefix of
 * another's key).
 */
export function encodeValue(type: FieldType, value: string | number | boolean): string {
  if (type === 'number') {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value === 0 ? 0 : (value as number)); // -0 and 0 are one value
    const bits = view.getBigUint64(0);
    const SIGN = 1n << 63n;
    // Negative numbers: every bit flipped (larger magnitudes sort first); others: the sign bit set.
    const ordered = bits & SIGN ? ~bits & (SIGN | (SIGN - 1n)) : bits | SIGN;
    return ordered.toString(16).padStart(16, '0');
  }
  if (type === 'date' || type === 'datetime') return String(value);
  // A sort key holds 1,024 bytes: a long value is keyed by its hash (`#` never starts an encoded value).
  const encoded = encodeURIComponent(String(value));
  return encoded.length <= LONG_VALUE ? encoded : `#${createHash('sha256').update(String(value)).digest('base64url')}`;
}

/** Encoded values longer than this are keyed by their hash (the rest of the key is `|` and a ticket id). */
const LONG_VALUE = 512;

/**
 * The value index: one item per ticket and value (a multi-select has one per option), in a partition per
 * field, sorted by value then ticket. Written by hand like the ticket search items (tickets/search.ts):
 * small, and fixed keys. `field.<key>` filters read one range of it.
 */
export const valuePartition = (tenant: TenantKey, key: string) => `tfield#${tenant.projectId}#${tenant.env}#${key}`;
export const valueSortKey = (encoded: string, ticketId: string) => `${encoded}|${ticketId}`;

export const entriesOf = (def: FieldDef, value: FieldValue | undefined) =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((x) => encodeValue(def.type, x));

/**
 * The writes that keep the value index and each definition's count in step with a ticket's values: for
 * each field whose value changed, the index items it loses and gains, and ±1 on `valueCount` when the
 * ticket gains or loses a value (0 otherwise, still guarding the definition). Items of the ticket's own
 * transaction.
 */
export function valueWrites(
  tenant: TenantKey,
  ticketId: string,
  defs: readonly FieldDef[],
  before: FieldValues,
  after: FieldValues,
): WriteItem[] {
  const writes: WriteItem[] = [];
  for (const def of defs) {
    const [old, next] = [entriesOf(def, before[def.key]), entriesOf(def, after[def.key])];
    if (old.join('\n') === next.join('\n')) continue;
    const pk = valuePartition(tenant, def.key);
    for (const e of old.filter((x) => !next.includes(x)))
      writes.push(remove({ TableName: env.tableName, Key: { pk, sk: valueSortKey(e, ticketId) } }));
    for (const e of next.filter((x) => !old.includes(x)))
      writes.push(put({ TableName: env.tableName, Item: { pk, sk: valueSortKey(e, ticketId), t: ticketId } }));
    const delta = (next.length > 0 ? 1 : 0) - (old.length > 0 ? 1 : 0);
    // Also with nothing to count: the definition the value was checked against must still be the
    // field's (ticket writes check against kept definitions, definitions.ts usedFields).
    writes.push(
      update(
        TicketField.patch({ ...tenant, key: def.key })
          .add({ valueCount: delta })
          .where((a, op) => `${op.notExists(a.deletedAt)} AND ${op.eq(a.type, def.type)}`),
      ),
    );
  }
  return writes;
}

/** A deleted ticket's index items by field (for the fieldCleanup job committed with the deletion). */
export const indexedValues = (defs: readonly FieldDef[], ticketId: string, values: FieldValues) =>
  defs
    .filter((def) => values[def.key] !== undefined)
    .map((def) => ({ key: def.key, sortKeys: entriesOf(def, values[def.key]).map((e) => valueSortKey(e, ticketId)) }));

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../../kernel/config.js';
import { documentClient } from '../../kernel/db/client.js';
import { errors, type FieldIssue } from '../../kernel/errors/common.js';
import type { TenantKey } from '../../kernel/tenant.js';
import { wellFormed } from '../../kernel/text.js';
import type { FieldDef } from './definitions.js';
import { encodeValue, type FieldValue, type FieldValues, realDate, utcTime, valuePartition } from './field-values.js';
import type { FieldFilterQuery } from './schemas.js';
import { EMAIL_VALUE_MAX, IN_MAX, TEXT_VALUE_MAX, URL_VALUE_MAX } from './values.js';

/** One field's filter: the values it must equal (any of them), or the range it must fall in. */
export interface FieldFilter {
  def: FieldDef;
  equals?: (string | number | boolean)[];
  gte?: string | number;
  lte?: string | number;
}

const RANGED = new Set(['number', 'date', 'datetime']);
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A filter value as the field's type reads it, or undefined when it cannot be one. A select takes any
 * text: tickets may hold an option removed since.
 */
function scalarOf(def: FieldDef, raw: string): string | number | boolean | undefined {
  if (!wellFormed(raw)) return undefined;
  switch (def.type) {
    case 'number':
      return NUMBER.test(raw) && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    case 'date':
      return realDate(raw) ? raw : undefined;
    case 'datetime':
      return utcTime(raw);
    case 'email':
      return raw.length <= EMAIL_VALUE_MAX ? raw.toLowerCase() : undefined;
    // Longer than any stored value: refused, as an exact-match filter not of its form is.
    case 'text':
      return raw.length <= TEXT_VALUE_MAX ? raw : undefined;
    case 'url':
      return raw.length <= URL_VALUE_MAX ? raw : undefined;
    default:
      return raw;
  }
}

/**
 * The query's field filters against the project's definitions: an unknown or non-filterable key, a
 * range on a type without order, or a value the type cannot hold is 422 naming the parameter.
 */
export function parseFieldFilters(defs: readonly FieldDef[], query: FieldFilterQuery | undefined): FieldFilter[] {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const filters = new Map<string, FieldFilter>();
  const problems: FieldIssue[] = [];
  for (const [name, raw] of Object.entries(query ?? {})) {
    const [key = '', op = 'eq'] = name.split('.');
    const param = `field.${name}`;
    const def = byKey.get(key);
    if (!def?.filterable) {
      problems.push({ field: param, in: 'query', message: `${key} is not a filterable ticket field of this project` });
      continue;
    }
    const filter = filters.get(key) ?? { def };
    filters.set(key, filter);
    if (op === 'gte' || op === 'lte') {
      const value = RANGED.has(def.type) ? scalarOf(def, raw) : undefined;
      if (value === undefined || typeof value === 'boolean')
        problems.push({
          field: param,
          in: 'query',
          message: `A ${def.type} field takes no range, or the value is not one`,
        });
      else filter[op] = value;
      continue;
    }
    const raws = op === 'in' ? raw.split(',').map((x) => x.trim()) : [raw];
    const values = raws.map((r) => scalarOf(def, r));
    if (raws.length > IN_MAX) problems.push({ field: param, in: 'query', message: `At most ${IN_MAX} values` });
    else if (values.some((x) => x === undefined))
      problems.push({ field: param, in: 'query', message: `Not a value of ${def.label} (${def.type})` });
    else filter.equals = [...(filter.equals ?? []), ...(values as (string | number | boolean)[])];
  }
  if (problems.length) throw errors.validation(problems);
  return [...filters.values()];
}

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** Whether a ticket's values pass every field filter (a multi-select passes when one of its options does). */
export function matchesFieldFilters(filters: readonly FieldFilter[], values: FieldValues | undefined) {
  return filters.every((f) => {
    const held: FieldValue | undefined = values?.[f.def.key];
    if (held === undefined) return false;
    const each = Array.isArray(held) ? held : [held];
    return each.some(
      (x) =>
        (!f.equals || f.equals.includes(x)) &&
        (f.gte === undefined || (typeof x !== 'boolean' && compare(x, f.gte) >= 0)) &&
        (f.lte === undefined || (typeof x !== 'boolean' && compare(x, f.lte) <= 0)),
    );
  });
}

/** Ids of the tickets one filter takes, from the field's value index: one Query per value (or one for a range). */
export async function ticketIdsFor(tenant: TenantKey, filter: FieldFilter): Promise<Set<string>> {
  // A range that ends before it starts holds nothing (DynamoDB refuses such a BETWEEN).
  if (filter.gte !== undefined && filter.lte !== undefined && compare(filter.gte, filter.lte) > 0) return new Set();
  const pk = valuePartition(tenant, filter.def.key);
  const ranges: { condition: string; values: Record<string, string> }[] = filter.equals
    ? filter.equals.map((x) => ({
        condition: 'pk = :pk AND begins_with(sk, :v)',
        values: { ':v': `${encodeValue(filter.def.type, x)}|` },
      }))
    : [
        {
          condition:
            filter.gte !== undefined && filter.lte !== undefined
              ? 'pk = :pk AND sk BETWEEN :lo AND :hi'
              : filter.gte !== undefined
                ? 'pk = :pk AND sk >= :lo'
                : 'pk = :pk AND sk <= :hi',
          values: {
            ...(filter.gte !== undefined ? { ':lo': `${encodeValue(filter.def.type, filter.gte)}|` } : {}),
            // `~` sorts after every character of a ticket id: the upper value's tickets are all inside.
            ...(filter.lte !== undefined ? { ':hi': `${encodeValue(filter.def.type, filter.lte)}|~` } : {}),
          },
        },
      ];
  const ids = new Set<string>();
  for (const range of ranges) {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await documentClient.send(
        new QueryCommand({
          TableName: env.tableName,
          KeyConditionExpression: range.condition,
          ExpressionAttributeValues: { ':pk': pk, ...range.values },
          ProjectionExpression: 't',
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) ids.add(item.t as string);
      start = out.LastEvaluatedKey;
    } while (start);
  }
  return ids;
}

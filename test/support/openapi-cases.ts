import { randomUUID } from 'node:crypto';

/**
 * Requests derived from the OpenAPI document alone, as a client generator or a property-based tester
 * would derive them: a valid value for a schema, and values that break exactly one of its rules.
 */
export type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  minProperties?: number;
  maxProperties?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  examples?: unknown[];
  default?: unknown;
  not?: { anyOf?: { required?: string[] }[] };
  $ref?: string;
};

export type Resolve = (schema: Schema) => Schema;

/** The schema itself, or what its `$ref` points at in the document. */
export const resolver =
  (doc: { components?: { schemas?: Record<string, Schema> } }): Resolve =>
  (schema) => {
    let s = schema;
    for (let i = 0; s.$ref && i < 10; i++)
      s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')] ?? {};
    return s;
  };

const typesOf = (s: Schema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
const matches = (pattern: string, value: string) => new RegExp(pattern, 'u').test(value);

/** A value the schema takes; `full` fills optional properties too. Undefined when the document gives no way to build one. */
export function validValue(raw: Schema, resolve: Resolve, full = false): unknown {
  const s = resolve(raw);
  if (s.examples?.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum.find((e) => e !== null) ?? s.enum[0];
  const branches = s.oneOf ?? s.anyOf;
  // Branches that only add rules to the object's own properties (`required`, `not`): the first one holds.
  if (branches && s.properties && branches.every((b) => !resolve(b).properties && !resolve(b).type)) {
    const [rule = {}] = branches.map(resolve);
    const forbidden = new Set((rule.not?.anyOf ?? []).flatMap((n) => n.required ?? []));
    const narrowed = Object.fromEntries(Object.entries(s.properties).filter(([name]) => !forbidden.has(name)));
    const { oneOf: _o, anyOf: _a, ...own } = s;
    return validValue(
      { ...own, properties: narrowed, required: [...(s.required ?? []), ...(rule.required ?? [])] },
      resolve,
      full,
    );
  }
  if (branches) {
    const branch = branches.map(resolve).find((b) => !typesOf(b).includes('null')) ?? branches[0];
    return branch && validValue(branch, resolve, full);
  }
  const type = typesOf(s).find((t) => t !== 'null') ?? (s.properties ? 'object' : 'string');
  switch (type) {
    case 'string': {
      // An hour ahead: a valid time for filters and for a send's `scheduledAt` (which must be in the future, its description says).
      if (s.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      if (s.format === 'date') return '2026-01-31';
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'email') return 'ann@example.com';
      if (s.format === 'uri') return 'https://example.com/hook';
      if (s.format === 'binary') return new Blob(['<p>Hello {{name}}</p>'], { type: 'text/plain' });
      if (s.pattern) return undefined;
      return 'x'.repeat(Math.min(s.maxLength ?? 10, Math.max(s.minLength ?? 1, 5)));
    }
    case 'integer':
    case 'number': {
      const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return Math.min(low, s.maximum ?? low);
    }
    case 'boolean':
      return true;
    case 'array': {
      const item = s.items ? validValue(s.items, resolve, full) : 'x';
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => item);
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(s.properties ?? {})) {
        const wanted = full || s.required?.includes(name) || Object.keys(out).length < (s.minProperties ?? 0);
        if (!wanted) continue;
        const value = validValue(property, resolve, full);
        if (value !== undefined) out[name] = value;
      }
      if (!s.properties && typeof s.additionalProperties === 'object' && (s.minProperties ?? 0) > 0) {
        const key = s.propertyNames ? (validValue(s.propertyNames, resolve) as string) : 'key';
        out[key] = validValue(s.additionalProperties, resolve, full);
      }
      return out;
    }
    default:
      return undefined;
  }
}

export interface Broken {
  /** Where the rule is, as a dot path (empty for the value itself). */
  at: string;
  rule: string;
  value: unknown;
}

/** One value per rule of the schema, breaking that rule alone (as far as the document can tell). */
export function brokenValues(raw: Schema, resolve: Resolve, valid: unknown): Broken[] {
  const s = resolve(raw);
  const out: Broken[] = [];
  const type = typesOf(s);
  if ((s.oneOf || s.anyOf || s.allOf) && !s.properties) return out;
  if (type.includes('null')) return out;
  if (s.enum?.length) out.push({ at: '', rule: 'enum', value: '__not_one_of_them__' });
  if (type.includes('string') && !s.enum) {
    out.push({ at: '', rule: 'type', value: 12345 });
    if (s.maxLength !== undefined) out.push({ at: '', rule: 'maxLength', value: 'x'.repeat(s.maxLength + 1) });
    if ((s.minLength ?? 0) > 0) out.push({ at: '', rule: 'minLength', value: '' });
    if (s.pattern) {
      const candidate = ['', ' ', '\u0007', '!!', 'x y', '..', '0'].find((c) => !matches(s.pattern as string, c));
      if (candidate !== undefined) out.push({ at: '', rule: 'pattern', value: candidate });
    }
    if (s.format && s.format !== 'binary') out.push({ at: '', rule: `format ${s.format}`, value: 'not-of-the-format' });
  }
  if (type.includes('integer') || type.includes('number')) {
    out.push({ at: '', rule: 'type', value: 'x' });
    if (s.maximum !== undefined) out.push({ at: '', rule: 'maximum', value: s.maximum + 1 });
    if (s.minimum !== undefined) out.push({ at: '', rule: 'minimum', value: s.minimum - 1 });
    if (type.includes('integer')) out.push({ at: '', rule: 'integer', value: 1.5 });
  }
  if (type.includes('boolean')) out.push({ at: '', rule: 'type', value: 'x' });
  if (type.includes('array')) {
    out.push({ at: '', rule: 'type', value: 'x' });
    const item = Array.isArray(valid) ? valid[0] : undefined;
    if (s.maxItems !== undefined && s.maxItems < 200 && item !== undefined)
      out.push({ at: '', rule: 'maxItems', value: Array.from({ length: s.maxItems + 1 }, () => item) });
    if ((s.minItems ?? 0) > 0) out.push({ at: '', rule: 'minItems', value: [] });
    if (s.items && item !== undefined)
      for (const b of brokenValues(s.items, resolve, item))
        out.push({ at: `0${b.at ? `.${b.at}` : ''}`, rule: b.rule, value: [b.value] });
  }
  if (type.includes('object') || s.properties) {
    if (!type.includes('null')) out.push({ at: '', rule: 'type', value: 'x' });
    const base = (valid ?? {}) as Record<string, unknown>;
    for (const name of s.required ?? []) {
      const { [name]: _gone, ...rest } = base;
      out.push({ at: '', rule: `required ${name}`, value: rest });
    }
    if (s.additionalProperties === false)
      out.push({ at: '', rule: 'additionalProperties', value: { ...base, zzUnknown: 1 } });
    if ((s.minProperties ?? 0) > 0 && !s.required?.length) out.push({ at: '', rule: 'minProperties', value: {} });
    for (const [name, property] of Object.entries(s.properties ?? {})) {
      const current = base[name] ?? validValue(property, resolve);
      if (current === undefined) continue;
      for (const b of brokenValues(property, resolve, current)) {
        out.push({ at: b.at ? `${name}.${b.at}` : name, rule: b.rule, value: { ...base, [name]: b.value } });
      }
    }
  }
  return out;
}

/** Every string property with a pattern that gives no example: the document leaves clients to guess a valid value. */
export function patternsWithoutExamples(raw: Schema, resolve: Resolve, at = ''): string[] {
  const s = resolve(raw);
  const here = s.pattern && !s.examples?.length && !s.enum ? [at || '(value)'] : [];
  const bad = s.pattern && s.examples?.some((e) => typeof e !== 'string' || !matches(s.pattern as string, e));
  return [
    ...here,
    ...(bad ? [`${at}: an example that breaks its own pattern`] : []),
    ...Object.entries(s.properties ?? {}).flatMap(([k, p]) =>
      patternsWithoutExamples(p, resolve, at ? `${at}.${k}` : k),
    ),
    ...(s.items ? patternsWithoutExamples(s.items, resolve, `${at}[]`) : []),
    ...[...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((b) => patternsWithoutExamples(b, resolve, at)),
    ...(typeof s.additionalProperties === 'object'
      ? patternsWithoutExamples(s.additionalProperties, resolve, `${at}{}`)
      : []),
  ];
}

import * as v from 'valibot';
import { integer, isoDateTime, patchBody } from '../../kernel/api/schemas.js';
import { FIELD_KEY_RE, FIELD_TYPES, LABEL_MAX, OPTION_MAX, OPTIONS_MAX } from './values.js';

const label = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(LABEL_MAX));
const options = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(OPTION_MAX))),
  v.minLength(1),
  v.maxLength(OPTIONS_MAX),
  v.check((list) => new Set(list).size === list.length, 'Options must differ from each other'),
);
export const fieldKey = v.pipe(
  v.string(),
  v.regex(FIELD_KEY_RE, 'A key: a lower-case letter, then up to 39 lower-case letters, digits or underscores'),
  v.metadata({ examples: ['order_id'] }),
);

const selectsNeedOptions = <T extends { type?: string; options?: string[] }>(f: T) =>
  f.type === undefined || !f.type.endsWith('select') || f.options !== undefined;

/** POST /ticket-fields. */
export const fieldCreate = v.pipe(
  v.strictObject({
    key: fieldKey,
    label,
    type: v.picklist(FIELD_TYPES),
    options: v.optional(options),
    required: v.optional(v.boolean()),
    filterable: v.optional(v.boolean()),
    position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000))),
  }),
  v.forward(v.check(selectsNeedOptions, 'A select or multi-select field needs its options'), ['options']),
  v.forward(
    v.check((f) => f.type.endsWith('select') || f.options === undefined, 'Only select fields have options'),
    ['options'],
  ),
);

/** PATCH /ticket-fields/{key}: at least one setting. */
export const fieldUpdate = patchBody(
  {
    label: v.optional(label),
    type: v.optional(v.picklist(FIELD_TYPES)),
    options: v.optional(options),
    required: v.optional(v.boolean()),
    filterable: v.optional(v.boolean()),
    position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000))),
  },
  'Give at least one of label, type, options, required, filterable, position',
);

export const ticketField = v.object({
  key: v.string(),
  label: v.string(),
  type: v.picklist(FIELD_TYPES),
  options: v.nullable(v.array(v.string())),
  required: v.boolean(),
  filterable: v.boolean(),
  position: integer,
  /** Tickets holding a value of this field. */
  valueCount: integer,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

/** A stored value as the API shows it: text, url, email, select, date and datetime as strings, multi-select a list. */
export const fieldValue = v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]);

/** `customFields` on a ticket write: a value per key, null to remove one (the definitions judge each value). */
export const customFieldsInput = v.pipe(
  v.record(fieldKey, v.unknown()),
  v.check((r) => Object.keys(r).length <= 50, 'At most 50 fields'),
);

export type FieldCreate = v.InferOutput<typeof fieldCreate>;
export type FieldUpdate = v.InferOutput<typeof fieldUpdate>;

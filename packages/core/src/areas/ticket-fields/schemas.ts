import * as v from 'valibot';
import { integer, isoDateTime, isPlainObject, lineText, patchBody, unicodeText } from '../../kernel/api/schemas.js';
import { FIELD_KEY_RE, FIELD_TYPES, FILTERS_MAX, LABEL_MAX, OPTION_MAX, OPTIONS_MAX } from './values.js';

const label = lineText(LABEL_MAX);
const options = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(OPTION_MAX), unicodeText)),
  v.minLength(1),
  v.maxLength(OPTIONS_MAX),
  v.check((list) => new Set(list).size === list.length, 'Options must differ from each other'),
);
export const fieldKey = v.pipe(
  v.string(),
  v.regex(FIELD_KEY_RE, 'A key: a lower-case letter, then up to 39 lower-case letters, digits or underscores'),
  // A name every JavaScript object answers to would read as a value of every ticket.
  v.check((k) => !(k in Object.prototype), 'This key is reserved'),
  v.metadata({ examples: ['order_id'] }),
);

/** POST /ticket-fields. `options` are a select's (and required for one); other types keep none. */
export const fieldCreate = v.strictObject({
  key: fieldKey,
  label,
  type: v.picklist(FIELD_TYPES),
  options: v.optional(options),
  required: v.optional(v.boolean()),
  filterable: v.optional(v.boolean()),
  position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000))),
});

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

/** `customFields` on a ticket write: a value per key, null to remove one (the definitions judge each value). */
export const customFieldsInput = v.pipe(
  // Not v.record: it takes an array (and answers it as an empty object).
  v.custom<Record<string, unknown>>(isPlainObject, 'Expected an object of values by field key'),
  v.check((r) => Object.keys(r).length <= 50, 'At most 50 fields'),
  v.check((r) => Object.keys(r).every((k) => FIELD_KEY_RE.test(k)), 'Every key a field key (GET /ticket-fields)'),
  v.metadata({ type: 'object', propertyNames: { pattern: FIELD_KEY_RE.source }, maxProperties: 50 }),
);

export type FieldCreate = v.InferOutput<typeof fieldCreate>;
export type FieldUpdate = v.InferOutput<typeof fieldUpdate>;

/** `field.<key>`, `field.<key>.gte`, `field.<key>.lte`, `field.<key>.in` on GET /tickets, as the pipeline gathers them. */
export const fieldFilterQuery = v.pipe(
  v.record(
    v.pipe(
      v.string(),
      v.maxLength(44),
      v.check(
        (name) => FIELD_KEY_RE.test(name.replace(/\.(?:gte|lte|in)$/, '')),
        'A field key, optionally .gte, .lte or .in',
      ),
    ),
    v.pipe(v.string(), v.maxLength(2_000)),
  ),
  v.check((r) => Object.keys(r).length <= FILTERS_MAX * 2, `At most ${FILTERS_MAX} fields filtered at once`),
);
export type FieldFilterQuery = v.InferOutput<typeof fieldFilterQuery>;

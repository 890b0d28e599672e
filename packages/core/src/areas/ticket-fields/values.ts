/** The vocabulary of a project's ticket fields (no database or schema imports here). */
export const FIELD_TYPES = [
  'text',
  'number',
  'date',
  'datetime',
  'boolean',
  'select',
  'multi-select',
  'url',
  'email',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Definitions per project and environment, deleted ones whose values are still being removed included. */
export const MAX_FIELDS = 50;
/** A key: what integrators write in `customFields` and `field.<key>`. */
export const FIELD_KEY_RE = /^[a-z][a-z0-9_]{0,39}$/;
export const LABEL_MAX = 100;
export const OPTIONS_MAX = 100;
export const OPTION_MAX = 100;
/** Characters of a text value (url and email values have their own bounds). */
export const TEXT_VALUE_MAX = 500;
export const URL_VALUE_MAX = 2048;
export const EMAIL_VALUE_MAX = 254;
/** Field filters one list request may combine. */
export const FILTERS_MAX = 5;
/** Values an `in` filter may name. */
export const IN_MAX = 20;

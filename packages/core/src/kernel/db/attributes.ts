/**
 * createdAt set once; updatedAt refreshed by ElectroDB on every write of the item, unless the write
 * names it (a use case that returns the record it wrote gives the time it answers with).
 */
export const timestamps = {
  createdAt: { type: 'string', required: true, readOnly: true, default: () => new Date().toISOString() },
  updatedAt: {
    type: 'string',
    required: true,
    default: () => new Date().toISOString(),
    set: (value?: string) => value ?? new Date().toISOString(),
    watch: '*',
  },
} as const;

/**
 * createdAt and updatedAt that only the writes naming them set: for items some writes change without
 * it counting as an update (a vote must not move an article up the newest-updated list, a ticket's value
 * count must not move its field's definition).
 */
export const explicitTimestamps = {
  createdAt: { type: 'string', required: true, readOnly: true, default: () => new Date().toISOString() },
  updatedAt: { type: 'string', required: true, default: () => new Date().toISOString() },
} as const;

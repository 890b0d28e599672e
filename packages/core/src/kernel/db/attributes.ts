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

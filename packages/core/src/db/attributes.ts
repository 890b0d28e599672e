/** createdAt set once; updatedAt refreshed by ElectroDB on every write of the item. */
export const timestamps = {
  createdAt: { type: 'string', required: true, readOnly: true, default: () => new Date().toISOString() },
  updatedAt: {
    type: 'string',
    required: true,
    default: () => new Date().toISOString(),
    set: () => new Date().toISOString(),
    watch: '*',
  },
} as const;

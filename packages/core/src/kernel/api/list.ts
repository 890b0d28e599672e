/** One page of an in-memory list, for lists whose filtered set has already been read. */
export const paginate = <T>(items: T[], page: number, limit: number) => ({
  rows: items.slice((page - 1) * limit, page * limit),
  total: items.length,
  page,
  limit,
});

/** Opaque cursors: base64url JSON of a DynamoDB position. */
export const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const decodeCursor = <T>(cursor: string): T | undefined => {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
};

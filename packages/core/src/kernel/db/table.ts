/**
 * The one table's physical shape. CDK, the local stack and the tests all build the table from this,
 * so the key and index names ElectroDB writes to exist everywhere.
 */
export const TTL_ATTRIBUTE = 'expiresAt';

export const GSI_NAMES = ['gsi1', 'gsi2', 'gsi3', 'gsi4'] as const;
export type GsiName = (typeof GSI_NAMES)[number];

export const tableKeys = {
  partitionKey: 'pk',
  sortKey: 'sk',
  gsis: GSI_NAMES.map((name) => ({ name, partitionKey: `${name}pk`, sortKey: `${name}sk` })),
} as const;

/** New images only: the relay needs what was written, never what was replaced. */
export const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' as const };

/** CreateTable input for DynamoDB Local and the tests (CDK declares the same in infra/). */
export const createTableInput = (tableName: string) => ({
  TableName: tableName,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [
    { AttributeName: tableKeys.partitionKey, AttributeType: 'S' as const },
    { AttributeName: tableKeys.sortKey, AttributeType: 'S' as const },
    ...tableKeys.gsis.flatMap((g) => [
      { AttributeName: g.partitionKey, AttributeType: 'S' as const },
      { AttributeName: g.sortKey, AttributeType: 'S' as const },
    ]),
  ],
  KeySchema: [
    { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' as const },
  ],
  // The outbox relay reads new items from the table's stream (kernel/ports/outbox.ts).
  StreamSpecification: STREAM,
  GlobalSecondaryIndexes: tableKeys.gsis.map((g) => ({
    IndexName: g.name,
    KeySchema: [
      { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  })),
});

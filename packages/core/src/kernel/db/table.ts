/**
 * The one table's physical shape. CDK, the local stack and the tests all build the table from this,
 * so the key and index names ElectroDB writes to exist everywhere.
 */
import {
  type EMAIL_LIST_GSI_NAMES,
  GSI_NAMES,
  type ListIndexCounts,
  NARROW_LISTS,
  type NarrowList,
  type TICKET_LIST_GSI_NAMES,
} from './indexes.js';

export * from './indexes.js';

export const TTL_ATTRIBUTE = 'expiresAt';

export type GsiName =
  | (typeof GSI_NAMES)[number]
  | (typeof TICKET_LIST_GSI_NAMES)[number]
  | (typeof EMAIL_LIST_GSI_NAMES)[number];

type Projection = { type: 'ALL' } | { type: 'INCLUDE'; attributes: readonly string[] };
export interface Gsi {
  name: GsiName;
  partitionKey: string;
  sortKey: string;
  projection: Projection;
}

const gsi = (name: GsiName, projection: Projection): Gsi => ({
  name,
  partitionKey: `${name}pk`,
  sortKey: `${name}sk`,
  projection,
});

/**
 * The indexes a table has: the shared ones and each entity's list indexes, all of them or fewer while an
 * existing table gains them (CloudFormation adds one index per stack update; docs/architecture.md, Upgrading).
 */
export const gsisOf = (counts: ListIndexCounts = {}): Gsi[] => [
  ...GSI_NAMES.map((name) => gsi(name, { type: 'ALL' })),
  ...Object.entries(NARROW_LISTS).flatMap(([entity, indexes]) =>
    indexes
      .slice(0, counts[entity as NarrowList] ?? indexes.length)
      .map(({ name, attributes }) => gsi(name as GsiName, { type: 'INCLUDE', attributes })),
  ),
];

export const tableKeys = {
  partitionKey: 'pk',
  sortKey: 'sk',
  gsis: gsisOf(),
} as const;

/** New images only: the relay needs what was written, never what was replaced. */
export const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' as const };

/** A GSI's projection as CreateTable and UpdateTable take it. */
export const projectionOf = (g: Gsi) =>
  g.projection.type === 'ALL'
    ? { ProjectionType: 'ALL' as const }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...g.projection.attributes] };

/** A GSI's key attributes and key schema as CreateTable and UpdateTable take them. */
export const keyAttributesOf = (g: Gsi) => [
  { AttributeName: g.partitionKey, AttributeType: 'S' as const },
  { AttributeName: g.sortKey, AttributeType: 'S' as const },
];
export const gsiInputOf = (g: Gsi) => ({
  IndexName: g.name,
  KeySchema: [
    { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: projectionOf(g),
});

/**
 * CreateTable input for DynamoDB Local and the tests (CDK declares the same in infra/). Fewer list indexes
 * build a table as an earlier release left it (the migration tests).
 */
export const createTableInput = (tableName: string, counts?: ListIndexCounts) => {
  const gsis = gsisOf(counts);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [
      { AttributeName: tableKeys.partitionKey, AttributeType: 'S' as const },
      { AttributeName: tableKeys.sortKey, AttributeType: 'S' as const },
      ...gsis.flatMap(keyAttributesOf),
    ],
    KeySchema: [
      { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' as const },
    ],
    // The outbox relay reads new items from the table's stream (kernel/ports/outbox.ts).
    StreamSpecification: STREAM,
    GlobalSecondaryIndexes: gsis.map(gsiInputOf),
  };
};

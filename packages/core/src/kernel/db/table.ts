/**
 * The one table's physical shape. CDK, the local stack and the tests all build the table from this,
 * so the key and index names ElectroDB writes to exist everywhere.
 */
export const TTL_ATTRIBUTE = 'expiresAt';

/** Shared indexes: every entity's lists but the ticket list's, whole items projected. */
export const GSI_NAMES = ['gsi1', 'gsi2', 'gsi3', 'gsi4'] as const;

/**
 * The ticket list's indexes (areas/tickets/entities.ts), tickets only. A ticket write moves its entry in
 * each of them (they sort by last activity), so an entry carries only what a list row shows and filters
 * on: the ticket item's other attributes (its thread links, metrics, merge record, the shared indexes'
 * keys) would be copied four times per write for nothing (docs/decisions.md, Cold start and cost).
 */
export const TICKET_LIST_GSI_NAMES = ['gsi5', 'gsi6', 'gsi7', 'gsi8'] as const;

/** What a ticket list entry holds besides the keys (ElectroDB's identifiers included, so it owns the rows). */
export const TICKET_LIST_ATTRIBUTES = [
  '__edb_e__',
  '__edb_v__',
  'projectId',
  'env',
  'ticketId',
  'number',
  'subject',
  'status',
  'priority',
  'category',
  'assignee',
  'customerEmail',
  'customerName',
  'lastSenderType',
  'lastMessageAt',
  'customFields',
  'sla',
  'createdAt',
  'updatedAt',
] as const;

export type GsiName = (typeof GSI_NAMES)[number] | (typeof TICKET_LIST_GSI_NAMES)[number];

type Projection = { type: 'ALL' } | { type: 'INCLUDE'; attributes: readonly string[] };
interface Gsi {
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
 * The ticket list indexes a table has: all four, or fewer while an existing table gains them (CloudFormation
 * adds one index per stack update; docs/architecture.md, Upgrading).
 */
export const gsisOf = (ticketListIndexes: number = TICKET_LIST_GSI_NAMES.length): Gsi[] => [
  ...GSI_NAMES.map((name) => gsi(name, { type: 'ALL' })),
  ...TICKET_LIST_GSI_NAMES.slice(0, ticketListIndexes).map((name) =>
    gsi(name, { type: 'INCLUDE', attributes: TICKET_LIST_ATTRIBUTES }),
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
 * CreateTable input for DynamoDB Local and the tests (CDK declares the same in infra/). `ticketListIndexes`
 * below four builds a table as an earlier release left it (the migration test).
 */
export const createTableInput = (tableName: string, ticketListIndexes?: number) => {
  const gsis = gsisOf(ticketListIndexes);
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

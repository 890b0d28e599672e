import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import type { ListMigration } from '@helpdesk/core/kernel/db/list-reindex';
import { createTableInput, gsisOf, type ListIndexCounts } from '@helpdesk/core/kernel/db/table';
import { afterAll } from 'vitest';
import { startDynamoDbLocal } from '../../packages/local/src/emulators.js';
import { addIndexes } from '../../packages/local/src/provision.js';
import { setEnv, testEndpoints, testResources } from './env.js';

/**
 * The file's table rebuilt as an earlier release left it (`counts` of each entity's list indexes), for the
 * list migration tests (docs/architecture.md, Upgrading). It lives on a DynamoDB Local of the file's own:
 * on the suite's shared one, an index built on an existing table waits for a quiet moment of every table,
 * which a full run never has. `settings` are the service's settings while it runs on it.
 */
export async function earlierTable(counts: ListIndexCounts, settings: Record<string, string>) {
  const tableName = testResources().tableName;
  const own = await startDynamoDbLocal();
  afterAll(() => own.stop());
  const endpoints = { ...testEndpoints(), dynamodb: own.endpoint };
  const dynamo = new DynamoDBClient({
    endpoint: own.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await dynamo.send(new CreateTableCommand(createTableInput(tableName, counts)));
  setEnv({ DYNAMODB_ENDPOINT: own.endpoint, ...settings });

  /** Every item of the migration's entity, as stored. */
  const items = async (m: ListMigration) => {
    const { Items = [] } = await documentClient.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#e = :entity',
        ExpressionAttributeNames: { '#e': '__edb_e__' },
        ExpressionAttributeValues: { ':entity': m.entity },
      }),
    );
    return Items;
  };

  return {
    tableName,
    endpoints,
    dynamo,
    items,
    /** Takes the new list keys off every item of the entity: the items as the earlier release wrote them. */
    async asWrittenBefore(m: ListMigration) {
      for (const item of await items(m)) {
        await documentClient.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: `REMOVE ${m.keys.map((_, n) => `#k${n}`).join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(m.keys.map((k, n) => [`#k${n}`, k])),
          }),
        );
      }
    },
    /** The stack gains the named indexes one per update, as CloudFormation allows; then every index is there. */
    async gainIndexes(names: readonly string[]) {
      await addIndexes(
        dynamo,
        tableName,
        gsisOf().filter((g) => names.includes(g.name)),
      );
      const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
      return Table?.GlobalSecondaryIndexes?.map((g) => g.IndexName).sort();
    },
  };
}

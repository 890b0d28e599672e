import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LEGACY_LIST_KEYS } from '@helpdesk/core/areas/tickets/entities';
import { reindexTicketLists } from '@helpdesk/core/areas/tickets/list-reindex';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import {
  createTableInput,
  GSI_NAMES,
  gsiInputOf,
  gsisOf,
  keyAttributesOf,
  TICKET_LIST_ATTRIBUTES,
  TICKET_LIST_GSI_NAMES,
} from '@helpdesk/core/kernel/db/table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../packages/cli/src/commands.js';
import { startDynamoDbLocal } from '../../packages/local/src/emulators.js';
import { provision } from '../../packages/local/src/provision.js';
import { startTestApp } from '../support/app.js';
import { setEnv, testEndpoints, testResources } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { createTicket } from './helpers.js';

/**
 * Upgrading a table made by the release before the ticket list indexes (docs/architecture.md, Upgrading):
 * the file's table is rebuilt as that release left it (the shared indexes only) and holds its tickets; the
 * stack then gains the four indexes one at a time, the service runs `migrating`, the backfill runs, lists
 * switch to the new indexes and the earlier entries are dropped. Every list answer stays the same.
 */
const tableName = testResources().tableName;
// A DynamoDB Local of the file's own: on the suite's shared one, an index built on an existing table
// waits for a quiet moment of every table, which a full run never has.
const own = await startDynamoDbLocal();
afterAll(() => own.stop());
const endpoints = { ...testEndpoints(), dynamodb: own.endpoint };
const dynamo = new DynamoDBClient({
  endpoint: own.endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
await dynamo.send(new CreateTableCommand(createTableInput(tableName, 0)));
setEnv({ DYNAMODB_ENDPOINT: own.endpoint, TICKET_LISTS: 'migrating' });

const app = await startTestApp({ endpoints });
let t: TenantFixture;
let key: string;
let alice: string;

const ticketItems = async () => {
  const { Items = [] } = await documentClient.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: '#e = :ticket',
      ExpressionAttributeNames: { '#e': '__edb_e__' },
      ExpressionAttributeValues: { ':ticket': 'ticket' },
    }),
  );
  return Items;
};
const LIST_KEYS = TICKET_LIST_GSI_NAMES.flatMap((name) => [`${name}pk`, `${name}sk`]);

/** The list answers a user sees, under several filters and across pages. */
async function lists() {
  const queries: Record<string, string | number>[] = [
    {},
    { status: 'open' },
    { status: 'new' },
    { assignee: alice },
    { assignee: 'unassigned' },
    { priority: 'high' },
    { category: 'billing' },
    { priority: 'urgent', category: 'bug' },
    { awaitingReply: 'true' },
    { limit: 2 },
    { limit: 2, page: 2 },
  ];
  const answers = [];
  for (const query of queries) {
    const res = await app.call('GET', '/tickets', { key, query });
    expect(res.status, res.text).toBe(200);
    answers.push(res.body);
    // The cursor walk reads past the first page.
    let cursor = res.body.nextCursor as string | null;
    while (cursor) {
      const next = await app.call('GET', '/tickets', { key, query: { ...query, cursor } });
      expect(next.status, next.text).toBe(200);
      answers.push(next.body);
      cursor = next.body.nextCursor;
    }
  }
  // SLA minutes are computed at read time; everything else is the stored row.
  return JSON.parse(JSON.stringify(answers));
}

const patch = (id: string, body: Record<string, unknown>) =>
  app.call('PATCH', `/tickets/${id}`, { key, body }).then((res) => expect(res.status, res.text).toBe(200));

const ids: string[] = [];

beforeAll(async () => {
  t = await createTenant();
  key = await t.key();
  alice = (await t.member({ name: 'Alice' })).memberId;
  // The earlier release's tickets: every filter's partitions in use.
  const shapes = [
    { priority: 'high', category: 'billing' },
    { priority: 'urgent', category: 'bug', assignedTo: alice },
    { priority: 'low', category: 'howto' },
    { priority: 'medium', category: 'other', assignedTo: alice },
    { priority: 'high', category: 'feature_request' },
  ];
  for (const shape of shapes) ids.push((await createTicket(app, key, shape)).id);
  await patch(ids[0]!, { status: 'open' });
  await patch(ids[2]!, { status: 'pending' });
  const reply = await app.call('POST', `/tickets/${ids[3]}/messages`, {
    key,
    body: { body: 'On it.', senderType: 'staff' },
  });
  expect(reply.status, reply.text).toBe(200);
  // As the earlier release wrote them: the shared indexes' keys only.
  for (const item of await ticketItems()) {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `REMOVE ${LIST_KEYS.map((_, n) => `#k${n}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(LIST_KEYS.map((k, n) => [`#k${n}`, k])),
      }),
    );
  }
});

describe('upgrading a table to the ticket list indexes', () => {
  it('keeps every list answer through the indexes, the backfill, the switch and the drop', async () => {
    const before = await ticketItems();
    expect(before).toHaveLength(5);
    for (const item of before) {
      for (const k of LEGACY_LIST_KEYS) expect(item[k], k).toEqual(expect.any(String));
      for (const k of LIST_KEYS) expect(item[k], k).toBeUndefined();
    }
    const earlier = await lists();

    // The stack gains the indexes one per update, as CloudFormation allows.
    for (const gsi of gsisOf().slice(GSI_NAMES.length)) {
      await dynamo.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: keyAttributesOf(gsi),
          GlobalSecondaryIndexUpdates: [{ Create: gsiInputOf(gsi) }],
        }),
      );
      // As CloudFormation does, the next update waits for the index to be built.
      await expect
        .poll(
          async () => {
            const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
            return Table?.GlobalSecondaryIndexes?.every((g) => g.IndexStatus === 'ACTIVE');
          },
          { timeout: 60_000, interval: 100 },
        )
        .toBe(true);
    }
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.GlobalSecondaryIndexes?.map((g) => g.IndexName).sort()).toEqual(
      [...GSI_NAMES, ...TICKET_LIST_GSI_NAMES].sort(),
    );
    expect(await lists()).toEqual(earlier);

    // Writes while migrating keep both sets of entries: a change and a new ticket.
    await patch(ids[4]!, { status: 'open', assignedTo: alice });
    ids.push((await createTicket(app, key, { priority: 'urgent', category: 'bug' })).id);
    const migrating = await lists();
    expect(migrating[0].total).toBe(6);
    expect(migrating[0].tickets.map((r: { id: string }) => r.id).slice(0, 2)).toEqual([ids[5], ids[4]]);

    // The backfill gives the earlier tickets their entries (the one changed meanwhile too: a change writes only
    // the keys whose values move, so its entry in the unfiltered list was still missing); a second run has
    // nothing to do.
    const changed = (await ticketItems()).find((item) => item.ticketId === ids[4]);
    expect(changed?.gsi6pk).toEqual(expect.any(String));
    expect(changed?.gsi5pk).toBeUndefined();
    expect(await reindexTicketLists({ dropLegacy: false })).toEqual({ tickets: 6, indexed: 5, skipped: 0, dropped: 0 });
    expect(await reindexTicketLists({ dropLegacy: false })).toEqual({ tickets: 6, indexed: 0, skipped: 0, dropped: 0 });
    // The earlier entries cannot go while lists read them.
    await expect(commands['tickets:reindex-lists']!.run({ 'drop-legacy': true })).rejects.toThrow(/TICKET_LISTS/);

    // Lists switch to the new indexes: the same answers.
    setEnv({ TICKET_LISTS: 'narrow' });
    expect(await lists()).toEqual(migrating);
    // An entry holds the row, not the whole ticket.
    const { Items: entries = [] } = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi5',
        KeyConditionExpression: 'gsi5pk = :pk',
        ExpressionAttributeValues: { ':pk': `${t.projects.main!.id}#live` },
      }),
    );
    expect(entries).toHaveLength(6);
    const allowed = new Set<string>([...TICKET_LIST_ATTRIBUTES, 'pk', 'sk', 'gsi5pk', 'gsi5sk']);
    for (const entry of entries) expect(Object.keys(entry).filter((name) => !allowed.has(name))).toEqual([]);

    // The earlier entries are dropped; lists and writes go on without them.
    expect(await commands['tickets:reindex-lists']!.run({ 'drop-legacy': true })).toEqual({
      tickets: 6,
      indexed: 0,
      skipped: 0,
      dropped: 6,
    });
    await patch(ids[1]!, { status: 'pending' });
    for (const item of await ticketItems()) {
      for (const k of LEGACY_LIST_KEYS) expect(item[k], k).toBeUndefined();
      for (const k of LIST_KEYS) expect(item[k], k).toEqual(expect.any(String));
    }
    const after = await lists();
    const pending = await app.call('GET', '/tickets', { key, query: { status: 'pending' } });
    expect(pending.body.tickets.map((r: { id: string }) => r.id)).toEqual([ids[1], ids[2]]);
    expect(after[0].tickets[0].id).toBe(ids[1]);
    expect(after[0].total).toBe(6);
  });

  it('gives a local table kept from before the indexes them when the local stack starts', async () => {
    const kept = `${tableName}-kept`;
    await dynamo.send(new CreateTableCommand(createTableInput(kept, 0)));
    await provision(endpoints, { tableName: kept, queuePrefix: `${kept}-q`, bucket: `${kept}-b` });
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: kept }));
    expect(
      Table?.GlobalSecondaryIndexes?.map((g) => [g.IndexName, g.Projection?.ProjectionType, g.IndexStatus]).sort(),
    ).toEqual(gsisOf().map((g) => [g.name, g.projection.type, 'ACTIVE']));
    await dynamo.send(new DeleteTableCommand({ TableName: kept }));
  });
});

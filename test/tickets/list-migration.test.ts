import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { LEGACY_LIST_KEYS, LIST_KEYS, ticketListMigration } from '@helpdesk/core/areas/tickets/entities';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import { reindexLists } from '@helpdesk/core/kernel/db/list-reindex';
import {
  createTableInput,
  gsisOf,
  TICKET_LIST_ATTRIBUTES,
  TICKET_LIST_GSI_NAMES,
} from '@helpdesk/core/kernel/db/table';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../packages/cli/src/commands.js';
import { provision } from '../../packages/local/src/provision.js';
import { startTestApp } from '../support/app.js';
import { earlierTable } from '../support/earlier-table.js';
import { setEnv } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { createTicket } from './helpers.js';

/**
 * Upgrading a table made by the release before the ticket list indexes (docs/architecture.md, Upgrading):
 * the file's table is rebuilt as that release left it (the shared indexes only) and holds its tickets; the
 * stack then gains the four indexes one at a time, the service runs `migrating`, the backfill runs, lists
 * switch to the new indexes and the earlier entries are dropped. Every list answer stays the same.
 */
const table = await earlierTable({ ticket: 0 }, { TICKET_LISTS: 'migrating' });
const { tableName, endpoints, dynamo } = table;
const app = await startTestApp({ endpoints });
let t: TenantFixture;
let key: string;
let alice: string;

const ticketItems = () => table.items(ticketListMigration);

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
  await table.asWrittenBefore(ticketListMigration);
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
    expect(await table.gainIndexes(TICKET_LIST_GSI_NAMES)).toEqual(
      gsisOf()
        .map((g) => g.name)
        .sort(),
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
    expect(await reindexLists(ticketListMigration, { dropLegacy: false })).toEqual({
      items: 6,
      indexed: 5,
      skipped: 0,
      dropped: 0,
    });
    expect(await reindexLists(ticketListMigration, { dropLegacy: false })).toEqual({
      items: 6,
      indexed: 0,
      skipped: 0,
      dropped: 0,
    });
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
      items: 6,
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
    await dynamo.send(new CreateTableCommand(createTableInput(kept, { ticket: 0 })));
    await provision(endpoints, { tableName: kept, queuePrefix: `${kept}-q`, bucket: `${kept}-b` });
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: kept }));
    expect(
      Table?.GlobalSecondaryIndexes?.map((g) => [g.IndexName, g.Projection?.ProjectionType, g.IndexStatus]).sort(),
    ).toEqual(
      gsisOf()
        .map((g) => [g.name, g.projection.type, 'ACTIVE'])
        .sort(),
    );
    await dynamo.send(new DeleteTableCommand({ TableName: kept }));
  });
});

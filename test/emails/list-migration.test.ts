import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { EMAIL_LIST_KEYS, emailListMigration, LEGACY_EMAIL_LIST_KEYS } from '@helpdesk/core/areas/emails/entities';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import { reindexLists } from '@helpdesk/core/kernel/db/list-reindex';
import { EMAIL_LIST_GSI_NAMES, EMAIL_LIST_INDEXES, gsisOf } from '@helpdesk/core/kernel/db/table';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../packages/cli/src/commands.js';
import { startTestApp } from '../support/app.js';
import { earlierTable } from '../support/earlier-table.js';
import { setEnv } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';
import { importTemplate, uniqueAddress } from './helpers.js';

/**
 * Upgrading a table made by the release before the email list indexes (docs/architecture.md, Upgrading):
 * the file's table is built as that release left it and holds its emails; the stack gains the four indexes
 * one at a time, the service runs `migrating`, the backfill runs, lists switch to the new indexes and the
 * earlier entries are dropped. Every list answer stays the same.
 */
const table = await earlierTable({ email: 0 }, { EMAIL_LISTS: 'migrating' });
const app = await startTestApp({ endpoints: table.endpoints });
let key: string;
const ada = uniqueAddress('ada');
const bob = uniqueAddress('bob');
const ids: string[] = [];

const emailItems = () => table.items(emailListMigration);

const send = async (body: Record<string, unknown>) => {
  const res = await app.call('POST', '/emails/send', { key, body });
  expect(res.status, res.text).toBe(200);
  ids.push(res.body.id);
  return res.body.id as string;
};
const custom = (to: string, extra: Record<string, unknown> = {}) => ({ to, subject: 'Hello', body: 'Hi.', ...extra });

/** The list answers a user sees, under every filter and their pairs, and across pages. */
async function lists() {
  const queries: Record<string, string | number>[] = [
    {},
    { to: ada },
    { to: bob.toUpperCase() },
    { status: 'sent' },
    { status: 'scheduled' },
    { templateKey: 'receipt' },
    { templateKey: 'Receipt' },
    { to: ada, status: 'sent' },
    { to: ada, templateKey: 'receipt' },
    { templateKey: 'receipt', status: 'scheduled' },
    { limit: 2 },
    { limit: 2, page: 2 },
  ];
  const answers = [];
  for (const query of queries) {
    const res = await app.call('GET', '/emails', { key, query });
    expect(res.status, res.text).toBe(200);
    answers.push({ query, ...res.body });
  }
  return answers;
}

beforeAll(async () => {
  const t = await createTenant();
  key = t.liveKey;
  // Template keys are compared as given though index keys are lower-cased.
  await importTemplate(app, 'receipt', '{{!-- subject: Receipt --}}<p>Paid</p>', { apiKey: key });
  await importTemplate(app, 'Receipt', '{{!-- subject: Receipt too --}}<p>Paid</p>', { apiKey: key });
  await send(custom(ada));
  await send({ to: ada, templateKey: 'receipt', variables: {} });
  await send({ to: bob, templateKey: 'Receipt', variables: {} });
  await send({ to: bob, templateKey: 'receipt', variables: {}, scheduledAt: new Date(Date.now() + 86_400_000) });
  await app.drain();
  // As the earlier release wrote them: the shared indexes' keys only.
  await table.asWrittenBefore(emailListMigration);
});

describe('upgrading a table to the email list indexes', () => {
  it('keeps every list answer through the indexes, the backfill, the switch and the drop', async () => {
    const before = await emailItems();
    expect(before).toHaveLength(4);
    for (const item of before) {
      for (const k of LEGACY_EMAIL_LIST_KEYS) expect(item[k], k).toEqual(expect.any(String));
      for (const k of EMAIL_LIST_KEYS) expect(item[k], k).toBeUndefined();
    }
    const earlier = await lists();
    // The answers this file compares are not empty ones.
    const count = (answers: { total: number }[]) => answers.map((a) => a.total);
    expect(count(earlier)).toEqual([4, 2, 2, 3, 1, 2, 1, 2, 1, 1, 4, 4]);

    expect(await table.gainIndexes(EMAIL_LIST_GSI_NAMES)).toEqual(
      gsisOf()
        .map((g) => g.name)
        .sort(),
    );
    expect(await lists()).toEqual(earlier);

    // Writes while migrating keep both sets of entries: a new send, and a cancel moving a row's status.
    await send(custom(ada));
    await app.drain();
    const canceled = await app.call('DELETE', `/emails/${ids[3]}`, { key });
    expect(canceled.status, canceled.text).toBe(200);
    const migrating = await lists();
    expect(count(migrating)).toEqual([5, 3, 2, 4, 0, 2, 1, 3, 1, 0, 5, 5]);
    expect(migrating[0]!.emails.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());

    // The backfill gives the earlier rows their entries (the canceled one too: a change writes only the keys
    // whose values move); a second run has nothing to do.
    expect(await reindexLists(emailListMigration, { dropLegacy: false })).toEqual({
      items: 5,
      indexed: 4,
      skipped: 0,
      dropped: 0,
    });
    expect(await reindexLists(emailListMigration, { dropLegacy: false })).toEqual({
      items: 5,
      indexed: 0,
      skipped: 0,
      dropped: 0,
    });
    await expect(commands['emails:reindex-lists']!.run({ 'drop-legacy': true })).rejects.toThrow(/EMAIL_LISTS/);

    // Lists switch to the new indexes: the same answers.
    setEnv({ EMAIL_LISTS: 'narrow' });
    expect(await lists()).toEqual(migrating);
    // An entry holds the id and the filters beside its key, not the row.
    const { Items: entries = [] } = await documentClient.send(
      new QueryCommand({
        TableName: table.tableName,
        IndexName: EMAIL_LIST_INDEXES.byRecipient.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': `${EMAIL_LIST_INDEXES.byRecipient.name}pk` },
        ExpressionAttributeValues: {
          ':pk': (await emailItems()).find((item) => item.recipient === ada)?.[
            `${EMAIL_LIST_INDEXES.byRecipient.name}pk`
          ],
        },
      }),
    );
    expect(entries).toHaveLength(3);
    const { name, attributes } = EMAIL_LIST_INDEXES.byRecipient;
    for (const entry of entries)
      expect(Object.keys(entry).sort()).toEqual(['pk', 'sk', `${name}pk`, `${name}sk`, ...attributes].sort());

    // The earlier entries are dropped; lists and writes go on without them.
    expect(await commands['emails:reindex-lists']!.run({ 'drop-legacy': true })).toEqual({
      items: 5,
      indexed: 0,
      skipped: 0,
      dropped: 5,
    });
    for (const item of await emailItems()) {
      for (const k of LEGACY_EMAIL_LIST_KEYS) expect(item[k], k).toBeUndefined();
      for (const k of EMAIL_LIST_KEYS) expect(item[k], k).toEqual(expect.any(String));
    }
    expect(await lists()).toEqual(migrating);
    await send(custom(bob, { scheduledAt: new Date(Date.now() + 86_400_000) }));
    const scheduled = await app.call('GET', '/emails', { key, query: { status: 'scheduled', to: bob } });
    expect(scheduled.body.emails.map((e: { id: string }) => e.id)).toEqual([ids[5]]);
  });
});

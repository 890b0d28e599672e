import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../config.js';
import { documentClient } from './client.js';
import { isConditionFailure } from './errors.js';
import { GSI_NAMES } from './indexes.js';

/** Items written at once: a page of the scan is up to 1 MB of items, written in slices. */
const SLICE = 25;

/** An entity moving to list indexes of its own (kernel/db/indexes.ts NARROW_LISTS). */
export interface ListMigration {
  /** The entity's ElectroDB name (`__edb_e__`). */
  entity: string;
  /** The new list indexes' key attributes. */
  keys: readonly string[];
  /** The shared indexes' key attributes its earlier release wrote. */
  legacyKeys: readonly string[];
  /** The new list keys of an item as the service writes them. */
  keysOf(item: Record<string, unknown>): Record<string, string>;
}

/**
 * An entity's migration to `indexes` from the shared ones, its list keys computed by `narrow` (its model
 * once migrated) as a write would make them.
 */
export function listMigration(
  entity: string,
  indexes: readonly string[],
  narrow: { put(item: never): { params<T>(): T } },
): ListMigration & { keys: string[]; legacyKeys: string[] } {
  const keys = indexes.flatMap((name) => [`${name}pk`, `${name}sk`]);
  return {
    entity,
    keys,
    legacyKeys: GSI_NAMES.flatMap((name) => [`${name}pk`, `${name}sk`]),
    keysOf(item) {
      const { Item } = narrow.put(item as never).params<{ Item: Record<string, unknown> }>();
      return Object.fromEntries(keys.map((key) => [key, String(Item[key])]));
    },
  };
}

export interface ReindexReport {
  items: number;
  /** Given their list entries by this run. */
  indexed: number;
  /** Written by the service since the scan (which writes the new entries itself), or deleted. */
  skipped: number;
  /** Whose earlier entries this run removed (`dropLegacy`). */
  dropped: number;
}

/**
 * `admin tickets:reindex-lists` and `admin emails:reindex-lists`: gives every item written by an earlier
 * release its entries in its entity's list indexes, and with `dropLegacy` (once lists read them: the
 * entity's `*_LISTS` is narrow) removes its entries from the shared indexes. Idempotent and safe beside the
 * running service: an item is written only if unchanged since the scan read it; one changed meanwhile was
 * written by the service, which keeps the new entries itself.
 */
export async function reindexLists(m: ListMigration, options: { dropLegacy: boolean }): Promise<ReindexReport> {
  const report: ReindexReport = { items: 0, indexed: 0, skipped: 0, dropped: 0 };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: env.tableName,
        FilterExpression: '#entity = :entity',
        ExpressionAttributeNames: { '#entity': '__edb_e__' },
        ExpressionAttributeValues: { ':entity': m.entity },
        ExclusiveStartKey: start,
      }),
    );
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += SLICE) {
      await Promise.all(items.slice(i, i + SLICE).map((item) => reindexOne(m, item, options, report)));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return report;
}

async function reindexOne(
  m: ListMigration,
  item: Record<string, unknown>,
  options: { dropLegacy: boolean },
  report: ReindexReport,
) {
  report.items++;
  if (!m.keys.every((key) => typeof item[key] === 'string')) {
    if (await indexOne(item, m.keysOf(item))) report.indexed++;
    else report.skipped++;
  }
  const legacy = options.dropLegacy ? m.legacyKeys.filter((key) => key in item) : [];
  if (legacy.length && (await dropKeys(item, legacy))) report.dropped++;
}

/**
 * Writes the item's list keys (all of them: an item the earlier release made and the service changed
 * while migrating has those whose values moved, but not the others), if it is unchanged since the scan.
 */
async function indexOne(item: Record<string, unknown>, keys: Record<string, string>) {
  const names = Object.keys(keys);
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET ${names.map((_, n) => `#k${n} = :k${n}`).join(', ')}`,
        ConditionExpression: '#updatedAt = :updatedAt',
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, n) => [`#k${n}`, name])),
          '#updatedAt': 'updatedAt',
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, n) => [`:k${n}`, keys[name]])),
          ':updatedAt': item.updatedAt,
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

async function dropKeys(item: Record<string, unknown>, keys: string[]) {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `REMOVE ${keys.map((_, n) => `#k${n}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(keys.map((key, n) => [`#k${n}`, key])),
      }),
    );
    return true;
  } catch (err) {
    // Deleted meanwhile.
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../../kernel/config.js';
import { documentClient } from '../../kernel/db/client.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { LEGACY_LIST_KEYS, LIST_KEYS, listKeysOf } from './entities.js';
import type { TicketItem } from './present.js';

/** Tickets written at once: a page of the scan is up to 1 MB of items, written in slices. */
const SLICE = 25;

export interface ReindexReport {
  tickets: number;
  /** Given their list entries by this run. */
  indexed: number;
  /** Written by the service since the scan (which writes the new entries itself), or deleted. */
  skipped: number;
  /** Whose earlier entries this run removed (`dropLegacy`). */
  dropped: number;
}

/**
 * `admin tickets:reindex-lists`: gives every ticket written by an earlier release its entries in the
 * ticket list indexes (kernel/db/table.ts), and with `dropLegacy` (once lists read them: TICKET_LISTS
 * narrow) removes its entries from the shared indexes. Idempotent and safe beside the running service:
 * a ticket is written only if unchanged since the scan read it; one changed meanwhile was written by the
 * service, which keeps the new entries itself.
 */
export async function reindexTicketLists(options: { dropLegacy: boolean }): Promise<ReindexReport> {
  const report: ReindexReport = { tickets: 0, indexed: 0, skipped: 0, dropped: 0 };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: env.tableName,
        FilterExpression: '#entity = :ticket',
        ExpressionAttributeNames: { '#entity': '__edb_e__' },
        ExpressionAttributeValues: { ':ticket': 'ticket' },
        ExclusiveStartKey: start,
      }),
    );
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += SLICE) {
      await Promise.all(items.slice(i, i + SLICE).map((item) => reindexOne(item, options, report)));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return report;
}

async function reindexOne(item: Record<string, unknown>, options: { dropLegacy: boolean }, report: ReindexReport) {
  report.tickets++;
  if (!LIST_KEYS.every((key) => typeof item[key] === 'string')) {
    if (await indexOne(item as unknown as TicketItem & { pk: string; sk: string })) report.indexed++;
    else report.skipped++;
  }
  const legacy = options.dropLegacy ? LEGACY_LIST_KEYS.filter((key) => key in item) : [];
  if (legacy.length && (await dropKeys(item, legacy))) report.dropped++;
}

/**
 * Writes the ticket's list keys (all of them: a ticket the earlier release made and the service changed
 * while migrating has those whose values moved, but not the others), if it is unchanged since the scan.
 */
async function indexOne(t: TicketItem & { pk: string; sk: string }) {
  const keys = listKeysOf(t);
  const names = Object.keys(keys);
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.tableName,
        Key: { pk: t.pk, sk: t.sk },
        UpdateExpression: `SET ${names.map((_, n) => `#k${n} = :k${n}`).join(', ')}`,
        ConditionExpression: '#updatedAt = :updatedAt',
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, n) => [`#k${n}`, name])),
          '#updatedAt': 'updatedAt',
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, n) => [`:k${n}`, keys[name]])),
          ':updatedAt': t.updatedAt,
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

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../../kernel/config.js';
import { documentClient } from '../../kernel/db/client.js';
import { commit, remove, update, type WriteItem } from '../../kernel/db/commit.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { Unavailable } from '../../kernel/errors/unavailable.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantKey } from '../../kernel/tenant.js';
import { TicketField } from '../ticket-fields/entities.js';
import { valuePartition } from '../ticket-fields/field-values.js';
import { fieldCleanupQueue } from '../ticket-fields/queue.js';
import { Ticket } from './entities.js';

/** Tickets one message clears before it hands the rest to the next message (a Lambda's time is bounded). */
export const CLEANUP_ROUND = 200;

/** The ticket item's key as ElectroDB writes it (the update removes one entry of its `customFields` map). */
const ticketKey = (tenant: TenantKey, ticketId: string) =>
  (Ticket.get({ projectId: tenant.projectId, env: tenant.env, ticketId }).params() as { Key: Record<string, string> })
    .Key;

/**
 * Removes a deleted field's values: per ticket, one transaction takes the value off the ticket, deletes
 * its index items and takes one off the definition's count. A round of CLEANUP_ROUND tickets per
 * message; the next round is an outbox item of the last transaction. With no value left, the
 * definition goes and its key is free.
 */
export async function removeFieldValues(field: TenantKey & { key: string }) {
  const tenant = { projectId: field.projectId, env: field.env };
  const pk = valuePartition(tenant, field.key);
  const out = await documentClient.send(
    new QueryCommand({
      TableName: env.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'sk, t',
      Limit: CLEANUP_ROUND * 4,
    }),
  );
  const byTicket = new Map<string, string[]>();
  for (const item of out.Items ?? [])
    byTicket.set(item.t as string, [...(byTicket.get(item.t as string) ?? []), item.sk as string]);
  const tickets = [...byTicket.entries()].slice(0, CLEANUP_ROUND);
  for (const [ticketId, sks] of tickets) {
    await commit({
      items: () => ({
        // A ticket deleted meanwhile holds nothing: the update only applies to one that exists.
        ticket: update({
          TableName: env.tableName,
          Key: ticketKey(tenant, ticketId),
          UpdateExpression: 'REMOVE customFields.#k',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#k': field.key },
        }),
        values: sks.map((sk) => remove({ TableName: env.tableName, Key: { pk, sk } })),
        count: update(TicketField.patch({ ...tenant, key: field.key }).add({ valueCount: -1 })),
      }),
      optional: ['ticket'],
      exhausted: () => new Unavailable('DynamoDB'),
    });
  }
  if (tickets.length === byTicket.size && !out.LastEvaluatedKey) {
    // Every value is gone: the key is free (only a deleted definition is removed).
    try {
      await TicketField.delete({ ...tenant, key: field.key })
        .where((a, op) => op.exists(a.deletedAt))
        .go();
    } catch (err) {
      // Removed by an earlier delivery of this message.
      if (!isConditionFailure(err)) throw err;
    }
    return;
  }
  await commit({
    items: () => ({ next: outboxItem(fieldCleanupQueue, field) }),
    exhausted: () => new Unavailable('DynamoDB'),
  });
}

/**
 * A deleted ticket's values leave the value index: per field, its items and one off the definition's
 * count in one transaction, each item removed only if still there, so a redelivered message changes
 * nothing twice. A field deleted meanwhile is left to its own clean-up (which reads its index).
 */
export async function removeTicketValues(
  job: TenantKey & { ticketId: string; values: { key: string; sortKeys: string[] }[] },
) {
  const tenant = { projectId: job.projectId, env: job.env };
  for (const { key, sortKeys } of job.values) {
    const pk = valuePartition(tenant, key);
    // A transaction holds 100 items: a long multi-select's items go first, the count with the last ones.
    const removeItem = (sk: string) =>
      remove({ TableName: env.tableName, Key: { pk, sk }, ConditionExpression: 'attribute_exists(pk)' });
    const head = sortKeys.slice(0, -90);
    for (let i = 0; i < head.length; i += 90)
      await Promise.all(head.slice(i, i + 90).map((sk) => commitQuietly(removeItem(sk))));
    await commit({
      items: () => ({
        values: sortKeys.slice(-90).map(removeItem),
        count: update(
          TicketField.patch({ ...tenant, key })
            .add({ valueCount: -1 })
            .where((a, op) => op.notExists(a.deletedAt)),
        ),
      }),
      refused: () => 'stop',
      exhausted: () => new Unavailable('DynamoDB'),
    });
  }
}

/** One item's removal on its own; already gone is done. */
const commitQuietly = (item: WriteItem) =>
  commit({ items: () => ({ item }), refused: () => 'stop', exhausted: () => new Unavailable('DynamoDB') });

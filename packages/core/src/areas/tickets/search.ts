import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../../kernel/config.js';
import { documentClient } from '../../kernel/db/client.js';
import { put, type WriteItem } from '../../kernel/db/commit.js';
import type { TenantContext, TenantKey } from '../../kernel/tenant.js';
import { Ticket } from './entities.js';
import type { TicketItem } from './present.js';

/**
 * `search` reads one compact item per ticket instead of the tickets: in its own partition per project
 * and environment, `sk` the ticket id, `u` the ticket's updatedAt (epoch ms, the list order) and `x`
 * the lower-cased subject and customer email. About 170 bytes, so 10,000 tickets are ~1.7 MB of reads.
 * Written without ElectroDB on purpose: its markers, composite copies and long keys would double the
 * size. Every write that moves a ticket's updatedAt puts the item in the same transaction.
 */
const partition = (ctx: TenantKey) => `tsearch#${ctx.projectId}#${ctx.env}`;

export const searchTextOf = (t: Pick<TicketItem, 'subject' | 'customerEmail'>) =>
  `${t.subject}\n${t.customerEmail}`.toLowerCase();

export const searchItemPut = (t: TicketItem): WriteItem =>
  put({
    TableName: env.tableName,
    Item: { pk: partition(t), sk: t.ticketId, u: Date.parse(t.updatedAt), x: searchTextOf(t) },
  });

export const deleteSearchItem = (t: TicketItem) =>
  documentClient.send(new DeleteCommand({ TableName: env.tableName, Key: { pk: partition(t), sk: t.ticketId } }));

/** A ticket found by search: its id and its position in the list order. */
export interface Hit {
  ticketId: string;
  updatedAt: string;
}

/** Every ticket whose subject or customer email contains `needle` (lower-cased), in any order. */
export async function searchHits(ctx: TenantContext, needle: string): Promise<Hit[]> {
  const hits: Hit[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient.send(
      new QueryCommand({
        TableName: env.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'contains(x, :needle)',
        ProjectionExpression: 'sk, u',
        ExpressionAttributeValues: { ':pk': partition(ctx), ':needle': needle },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? [])
      hits.push({ ticketId: item.sk as string, updatedAt: new Date(item.u as number).toISOString() });
    start = out.LastEvaluatedKey;
  } while (start);
  return hits;
}

/** The tickets with these ids (a page), missing ones left out: one BatchGetItem per 100. */
export async function ticketsByIds(ctx: TenantKey, ticketIds: string[]): Promise<TicketItem[]> {
  const found: TicketItem[] = [];
  let pending = ticketIds.map((ticketId) => ({ projectId: ctx.projectId, env: ctx.env, ticketId }));
  while (pending.length) {
    const { data, unprocessed } = await Ticket.get(pending).go();
    found.push(...data);
    pending = unprocessed;
  }
  return found;
}

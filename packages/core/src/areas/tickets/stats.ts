import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../../kernel/config.js';
import { documentClient } from '../../kernel/db/client.js';
import { update, type WriteItem } from '../../kernel/db/commit.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { type Category, type Priority, type SenderType, type Status, TicketStats } from './entities.js';

/** What a ticket contributes to the list's counts: one count per list index partition it sits in. */
export interface Facets {
  status: Status;
  lastSenderType: SenderType;
  assignee: string;
  priority: Priority;
  category: Category;
}

export const TOTAL = 'total';
export const statusKey = (status: Status, sender: SenderType) => `s#${status}#${sender}`;
export const assigneeKey = (assignee: string) => `a#${assignee}`;
export const priorityKey = (priority: Priority, category: Category) => `pc#${priority}#${category}`;

const keysOf = (f: Facets) => [
  TOTAL,
  statusKey(f.status, f.lastSenderType),
  assigneeKey(f.assignee),
  priorityKey(f.priority, f.category),
];

/** +1/-1 per count that changes when a ticket goes from `before` to `after` (either may be absent). */
export function countDeltas(before: Facets | undefined, after: Facets | undefined) {
  const deltas = new Map<string, number>();
  for (const k of before ? keysOf(before) : []) deltas.set(k, (deltas.get(k) ?? 0) - 1);
  for (const k of after ? keysOf(after) : []) deltas.set(k, (deltas.get(k) ?? 0) + 1);
  return [...deltas].filter(([, n]) => n !== 0);
}

/** Deltas of several ticket writes in one transaction, which may update the stats item once. */
export function sumDeltas(...lists: [string, number][][]): [string, number][] {
  const sum = new Map<string, number>();
  for (const [k, n] of lists.flat()) sum.set(k, (sum.get(k) ?? 0) + n);
  return [...sum].filter(([, n]) => n !== 0);
}

const statsKey = (ctx: TenantContext) =>
  TicketStats.get({ projectId: ctx.projectId, env: ctx.env }).params().Key as Record<string, string>;

/** The stats item holds counts as `n:<key>` attributes: dynamic names the entity cannot declare. */
const addExpression = (deltas: [string, number][], extra: Record<string, number> = {}) => {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts: string[] = [];
  [...deltas.map(([k, n]) => [`n:${k}`, n] as const), ...Object.entries(extra)].forEach(([name, n], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = n;
    parts.push(`#a${i} :a${i}`);
  });
  return {
    UpdateExpression: `ADD ${parts.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/**
 * Takes the next ticket number and counts the new ticket, in one atomic UpdateItem: concurrent creates
 * get distinct numbers.
 */
export async function nextTicketNumber(ctx: TenantContext, facets: Facets): Promise<number> {
  const out = await documentClient.send(
    new UpdateCommand({
      TableName: env.tableName,
      Key: statsKey(ctx),
      ...addExpression(countDeltas(undefined, facets), { lastNumber: 1 }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return (out.Attributes as { lastNumber: number }).lastNumber;
}

/** The count changes as an item of the caller's transaction, so they commit with the ticket change. */
export const countsUpdate = (ctx: TenantContext, deltas: [string, number][]): WriteItem[] =>
  deltas.length ? [update({ TableName: env.tableName, Key: statsKey(ctx), ...addExpression(deltas) })] : [];

export async function applyCountDeltas(ctx: TenantContext, deltas: [string, number][]) {
  if (deltas.length === 0) return;
  await documentClient.send(
    new UpdateCommand({ TableName: env.tableName, Key: statsKey(ctx), ...addExpression(deltas) }),
  );
}

export async function readCounts(ctx: TenantContext): Promise<(key: string) => number> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.tableName, Key: statsKey(ctx) }));
  return (key) => Number(Item?.[`n:${key}`] ?? 0);
}

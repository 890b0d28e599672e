import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EntityItem } from 'electrodb';
import { env } from '../../kernel/config.js';
import { documentClient } from '../../kernel/db/client.js';
import { update, type WriteItem } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantKey } from '../../kernel/tenant.js';
import type { SlaClock } from '../sla/clock.js';
import { bucketOf, nextMetrics, percentiles, type TicketMetrics } from '../sla/metrics.js';
import { SLA_TARGETS } from '../sla/values.js';
import { METRICS_MAX_DAYS, type Ticket, TicketMetricsDay, UNASSIGNED } from './entities.js';

type TicketItem = EntityItem<typeof Ticket>;
export const metricsOf = (t: Pick<TicketItem, 'metrics'>) => t.metrics as TicketMetrics | undefined;
const clockOf = (t: Pick<TicketItem, 'sla'>) => t.sla as SlaClock | undefined;

/** The ticket's metrics after a change (a public staff reply, a status change; `undo`: an unmerge's). */
export const changedMetrics = (
  before: TicketItem,
  after: TicketItem,
  staffReply: boolean,
  now: string,
  undo = false,
) =>
  staffReply || before.status !== after.status
    ? nextMetrics(
        metricsOf(before),
        { staffReply, from: before.status, to: after.status, undo },
        before.createdAt,
        now,
        clockOf(after)?.rules.calendar,
      )
    : metricsOf(before);

const groupsOf = (t: TicketItem) => ['all', `p:${t.priority}`, `a:${t.assignee}`];
const dayOf = (iso: string) => iso.slice(0, 10);
type Delta = { day: string; name: string; n: number };

/**
 * The day counters a ticket change adds to (the ticket's transaction): a first reply and a resolution
 * in their histograms (a reopen takes the resolution off again, under the ticket's current groups),
 * and each SLA target newly met, missed or breached.
 */
export function metricsWrites(ctx: TenantKey, before: TicketItem | undefined, after: TicketItem, now: string) {
  const deltas: Delta[] = [];
  const add = (t: TicketItem, day: string, kind: string, n: number, bucket?: number) => {
    for (const g of groupsOf(t))
      deltas.push({ day, name: bucket === undefined ? `${kind}#${g}` : `${kind}#${g}#${bucket}`, n });
  };
  const [was, is] = [before ? metricsOf(before) : undefined, metricsOf(after)];
  if (!was?.firstReply && is?.firstReply)
    add(after, dayOf(is.firstReply.at), 'fr', 1, bucketOf(is.firstReply.calendar));
  if (was?.resolution?.at !== is?.resolution?.at) {
    if (was?.resolution && before) add(before, dayOf(was.resolution.at), 'rs', -1, bucketOf(was.resolution.calendar));
    if (is?.resolution) add(after, dayOf(is.resolution.at), 'rs', 1, bucketOf(is.resolution.calendar));
  }
  deltas.push(...slaDeltas(before, after, now, groupsOf(after)));
  return dayWrites(ctx, deltas);
}

/** SLA outcomes a clock change produced: targets newly breached, and newly finished as met or missed. */
export function slaDeltas(before: TicketItem | undefined, after: TicketItem, now: string, groups: string[]): Delta[] {
  const [b, a] = [before ? clockOf(before) : undefined, clockOf(after)];
  const out: Delta[] = [];
  for (const name of SLA_TARGETS) {
    const [was, is] = [b?.targets[name], a?.targets[name]];
    const counted: [string, string, number][] = [
      ...(is?.breachedAt && !was?.breachedAt ? [['br', now, 1] as [string, string, number]] : []),
      ...(is?.achievedAt && !was?.achievedAt
        ? [[is.breachedAt ? 'miss' : 'met', now, 1] as [string, string, number]]
        : []),
      // A reopen resumes the resolution target: its outcome is taken back until it ends again.
      ...(was?.achievedAt && !is?.achievedAt
        ? [[was.breachedAt ? 'miss' : 'met', was.achievedAt, -1] as [string, string, number]]
        : []),
    ];
    for (const [kind, at, n] of counted) for (const g of groups) out.push({ day: dayOf(at), name: `${kind}#${g}`, n });
  }
  return out;
}

export const slaGroupsOf = groupsOf;

const dayKey = (ctx: TenantKey, day: string) =>
  TicketMetricsDay.get({ projectId: ctx.projectId, env: ctx.env, day }).params().Key as { pk: string; sk: string };

/**
 * A group's counters of a day in an item of their own, beside the day's key (`<day key>#<group>`): an
 * update is billed on the item's whole size and an item may not pass 400 KB, so one item per day would
 * make every first reply pay for all the day's counters and stop taking writes once a large team's
 * assignees filled it. A group's item holds at most its histograms' buckets and the SLA outcomes (a few
 * KB). Items written before the split hold every group of their day; readers sum whatever they find.
 */
const counterItemKey = (ctx: TenantKey, day: string, group: string) => {
  const key = dayKey(ctx, day);
  return { pk: key.pk, sk: `${key.sk}#${group}` };
};

/** One ADD per day and group touched, as items of the caller's transaction. */
export function dayWrites(ctx: TenantKey, deltas: Delta[]): WriteItem[] {
  const byItem = new Map<string, { day: string; group: string; counts: Map<string, number> }>();
  for (const d of deltas) {
    const group = d.name.split('#')[1] ?? '';
    const id = `${d.day}#${group}`;
    const item = byItem.get(id) ?? { day: d.day, group, counts: new Map<string, number>() };
    item.counts.set(d.name, (item.counts.get(d.name) ?? 0) + d.n);
    byItem.set(id, item);
  }
  return [...byItem.values()].map(({ day, group, counts }) => {
    const names: Record<string, string> = {};
    const values: Record<string, number | string> = {};
    const parts = [...counts].map(([name, n], i) => {
      names[`#m${i}`] = name;
      values[`:m${i}`] = n;
      return `#m${i} :m${i}`;
    });
    return update({
      TableName: env.tableName,
      Key: counterItemKey(ctx, day, group),
      UpdateExpression: `SET #day = :day ADD ${parts.join(', ')}`,
      ExpressionAttributeNames: { ...names, '#day': 'day' },
      ExpressionAttributeValues: { ...values, ':day': day },
    });
  });
}

export type MetricsGroupBy = 'day' | 'priority' | 'assignee';

/**
 * GET /tickets/metrics: the counter items of the range (one Query: a day's groups hold a few hundred
 * counters, so 90 busy days take one or two 1 MB pages), summed per group. Medians and 90th percentiles come from the
 * histograms (within about 12%).
 */
export async function ticketMetrics(ctx: TenantKey, query: { from?: string; to?: string; groupBy: MetricsGroupBy }) {
  const q = rangeOf(query);
  const [lo, hi] = [dayKey(ctx, q.from), dayKey(ctx, q.to)];
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient.send(
      new QueryCommand({
        TableName: env.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
        // The last day's group items sort after its key: the upper bound takes them in.
        ExpressionAttributeValues: { ':pk': lo.pk, ':lo': lo.sk, ':hi': `${hi.sk}#\uffff` },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  const groups = new Map<string, Map<string, number>>();
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      const [kind, group, bucket] = name.split('#');
      if (!kind || !group || typeof value !== 'number' || !['fr', 'rs', 'br', 'met', 'miss'].includes(kind)) continue;
      const key = q.groupBy === 'day' ? (group === 'all' ? String(item.day) : undefined) : groupKey(q.groupBy, group);
      if (!key) continue;
      const counts = groups.get(key) ?? new Map<string, number>();
      const counter = bucket === undefined ? kind : `${kind}#${bucket}`;
      counts.set(counter, (counts.get(counter) ?? 0) + value);
      groups.set(key, counts);
    }
  }
  return {
    from: q.from,
    to: q.to,
    groupBy: q.groupBy,
    groups: [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, counts]) => summary(key, counts)),
  };
}

/** The days asked for: the last 30 by default; at most METRICS_MAX_DAYS, `from` not after `to` (else 422). */
function rangeOf(q: { from?: string; to?: string; groupBy: MetricsGroupBy }) {
  const to = q.to ?? new Date().toISOString().slice(0, 10);
  const from = q.from ?? new Date(Date.parse(to) - 29 * 86_400_000).toISOString().slice(0, 10);
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days < 1)
    throw errors.validation([{ field: 'from', in: 'query', message: 'from is a day before or equal to to' }]);
  if (days > METRICS_MAX_DAYS)
    throw errors.validation([{ field: 'to', in: 'query', message: `At most ${METRICS_MAX_DAYS} days` }]);
  return { from, to, groupBy: q.groupBy };
}

function groupKey(groupBy: 'priority' | 'assignee', group: string) {
  const prefix = groupBy === 'priority' ? 'p:' : 'a:';
  if (!group.startsWith(prefix)) return undefined;
  const value = group.slice(prefix.length);
  return value === UNASSIGNED ? 'unassigned' : value;
}

function summary(key: string, counts: Map<string, number>) {
  const histogram = (kind: string) =>
    new Map(
      [...counts]
        .filter(([name]) => name.startsWith(`${kind}#`))
        .map(([name, n]) => [Number(name.slice(kind.length + 1)), Math.max(0, n)] as const),
    );
  const [met, missed] = [Math.max(0, counts.get('met') ?? 0), Math.max(0, counts.get('miss') ?? 0)];
  return {
    key,
    firstReply: percentiles(histogram('fr')),
    resolution: percentiles(histogram('rs')),
    sla: { met, missed, achievementRate: met + missed ? Math.round((met / (met + missed)) * 1000) / 1000 : null },
    breaches: Math.max(0, counts.get('br') ?? 0),
  };
}

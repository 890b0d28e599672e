import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { bytesRead, describe, isRateLimitWrite, readUnits } from './capacity.js';
import { progress, type Stack } from './stack.js';

export const SCALE_TICKETS = process.env.BENCH_QUICK === '1' ? 300 : 10_000;
const THREAD_MESSAGES = 50;
const CONCURRENCY = 16;

export interface ScaleResult {
  name: string;
  query: Record<string, string | number | boolean>;
  status: number;
  total: number;
  requests: number;
  rcu: number;
  bytes: number;
  ms: number;
  list: string;
  /** Whether the 2 MB target applies (default list and single filters). */
  targeted: boolean;
}

/** Runs fn over 0..n-1 with a fixed number of workers. */
export async function pool(n: number, workers: number, fn: (i: number) => Promise<void>, label?: string) {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < n) {
        const i = next++;
        await fn(i);
        if (label && ++done % 1000 === 0) progress(`${label}: ${done}/${n}`);
      }
    }),
  );
}

/** Creates a ticket context from the bench key, as the pipeline does for a request. */
export async function tenantContext(key: string, project: string): Promise<TenantContext> {
  const { resolvePrincipal } = await import('@helpdesk/core/identity/principal');
  const { resolveTenant } = await import('@helpdesk/core/top/pipeline/tenancy');
  const principal = await resolvePrincipal(key);
  if (!principal) throw new Error('Bench key does not resolve');
  return resolveTenant(principal, true, {
    project: [{ value: project, from: 'header' }],
    environment: [],
  }) as TenantContext;
}

/**
 * 10,000 tickets written by the tickets area's own create, update and message functions (the same
 * items, counters and index keys the API writes), spread over priorities, categories, assignees,
 * statuses and last senders; then one ticket with a 50-message thread.
 */
export async function seedTickets(ctx: TenantContext, members: string[]) {
  const { createTicket } = await import('@helpdesk/core/areas/tickets/create');
  const { updateTicket } = await import('@helpdesk/core/areas/tickets/update');
  const { postMessage } = await import('@helpdesk/core/areas/tickets/messages');
  const { PRIORITIES, CATEGORIES } = await import('@helpdesk/core/areas/tickets/entities');
  const { createField } = await import('@helpdesk/core/areas/ticket-fields/definitions');
  const statuses = ['open', 'pending', 'resolved', 'closed'] as const;
  const plans = ['free', 'pro', 'team'] as const;
  // Three filterable ticket fields: one value per ticket, a hundred tickets per amount, a third per plan.
  await createField(ctx, { key: 'order_id', label: 'Order', type: 'text', filterable: true });
  await createField(ctx, { key: 'amount', label: 'Amount', type: 'number', filterable: true });
  await createField(ctx, { key: 'plan', label: 'Plan', type: 'select', options: [...plans], filterable: true });
  const started = performance.now();
  const ids: string[] = [];
  await pool(
    SCALE_TICKETS,
    CONCURRENCY,
    async (i) => {
      const ticket = await createTicket(ctx, {
        subject: `Order ${100_000 + i} ${['arrived damaged', 'never shipped', 'charged twice', 'wrong size'][i % 4]}`,
        body: `Hello, this is about order ${100_000 + i}. `.repeat(4),
        customer: { email: `customer${i % 500}@shop${i % 7}.example`, name: `Customer ${i % 500}` },
        priority: PRIORITIES[i % PRIORITIES.length],
        category: CATEGORIES[(i >> 2) % CATEGORIES.length],
        ...(i % 6 === 0 ? {} : { assignedTo: members[i % members.length] }),
        customFields: { order_id: String(100_000 + i), amount: i % 100, plan: plans[i % plans.length] },
      });
      ids[i] = ticket.id;
      // Two in five tickets move on: an agent's note (last sender staff), then a later status.
      if (i % 5 < 2) {
        await postMessage(ctx, ticket.id, { body: 'Checking with the warehouse.', visibility: 'internal' });
        await updateTicket(ctx, ticket.id, { status: statuses[i % statuses.length] });
      }
    },
    'seeding tickets',
  );
  const threadId = ids[0]!;
  // Ticket 0 holds the customer's message and the seeding note already.
  for (let m = 3; m <= THREAD_MESSAGES; m++)
    await postMessage(ctx, threadId, { body: `Update ${m}: still investigating.`, visibility: 'internal' });
  progress(`seeded ${SCALE_TICKETS} tickets in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { ids, threadId };
}

/** GET /tickets over the seeded project, default and each filter, and GET /tickets/{id} of the 50-message ticket. */
export async function measureScale(
  stack: Stack,
  project: string,
  members: string[],
  threadId: string,
): Promise<ScaleResult[]> {
  const queries: [string, Record<string, string | number | boolean>, boolean][] = [
    ['default', {}, true],
    ['status=open', { status: 'open' }, true],
    ['status=new', { status: 'new' }, true],
    ['priority=urgent', { priority: 'urgent' }, true],
    ['category=billing', { category: 'billing' }, true],
    ['assignee=<member>', { assignee: members[1]! }, true],
    ['assignee=unassigned', { assignee: 'unassigned' }, true],
    ['awaitingReply=true', { awaitingReply: true }, true],
    ['search=charged', { search: 'charged' }, true],
    ['number=5000', { number: 5000 }, true],
    ['page=40', { page: 40 }, false],
    ['status=open&priority=high', { status: 'open', priority: 'high' }, false],
    ['field.order_id=105000 (1 ticket)', { 'field.order_id': '105000' }, false],
    ['field.amount.gte=99 (100 tickets)', { 'field.amount.gte': 99 }, false],
    [
      'field.amount.gte=90&field.amount.lte=99 (1,000 tickets)',
      { 'field.amount.gte': 90, 'field.amount.lte': 99 },
      false,
    ],
    ['field.plan=pro (3,333 tickets)', { 'field.plan': 'pro' }, false],
    ['field.plan=pro&status=open', { 'field.plan': 'pro', status: 'open' }, false],
  ];
  const results: ScaleResult[] = [];
  const measure = async (
    name: string,
    path: string,
    query: Record<string, string | number | boolean>,
    targeted: boolean,
  ) => {
    await stack.call('GET', path, { query, project }); // warm
    const { result, requests, ms } = await stack.recorder.record(() => stack.call('GET', path, { query, project }));
    const own = requests.filter((r) => !isRateLimitWrite(r));
    results.push({
      name,
      query,
      status: result.status,
      total: result.body?.total ?? result.body?.messages?.length ?? 0,
      requests: requests.length,
      rcu: readUnits(own),
      bytes: bytesRead(own),
      ms,
      list: describe(own),
      targeted,
    });
  };
  for (const [name, query, targeted] of queries) await measure(`GET /tickets ${name}`, '/tickets', query, targeted);
  // 90 days of metrics counters as a busy project leaves them (every priority, ten assignees, full histograms).
  const range = await seedMetricDays(await tenantContext(stack.key(), project), members);
  for (const groupBy of ['day', 'assignee'])
    await measure(`GET /tickets/metrics 90 days, groupBy=${groupBy}`, '/tickets/metrics', { ...range, groupBy }, false);
  await measure(`GET /tickets/{id} (${THREAD_MESSAGES} messages)`, `/tickets/${threadId}`, {}, false);
  return results;
}

/** Day counters for the last 90 days, written as ticket writes add them (one ADD item per day and group). */
async function seedMetricDays(ctx: TenantContext, members: string[]) {
  const { commit } = await import('@helpdesk/core/kernel/db/commit');
  const { dayWrites } = await import('@helpdesk/core/areas/tickets/metrics');
  const days = Array.from({ length: 90 }, (_, i) => new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10));
  const groups = ['all', 'p:low', 'p:medium', 'p:high', 'p:urgent', ...members.slice(0, 10).map((m) => `a:${m}`)];
  await pool(days.length, 8, async (i) => {
    const day = days[i]!;
    const deltas = groups.flatMap((g) => [
      ...Array.from({ length: 30 }, (_, b) => [
        { day, name: `fr#${g}#${b}`, n: 1 + (b % 7) },
        { day, name: `rs#${g}#${b + 10}`, n: 1 + (b % 5) },
      ]).flat(),
      { day, name: `met#${g}`, n: 40 },
      { day, name: `miss#${g}`, n: 3 },
      { day, name: `br#${g}`, n: 4 },
    ]);
    // An UpdateItem holds a bounded expression: the day's counters go in slices.
    for (let at = 0; at < deltas.length; at += 100)
      await commit({
        items: () => ({ day: dayWrites(ctx, deltas.slice(at, at + 100)) }),
        exhausted: () => new Error('seeding metrics days'),
      });
  });
  return { from: days.at(-1)!, to: days[0]! };
}

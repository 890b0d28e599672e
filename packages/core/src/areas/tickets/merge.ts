import { randomUUID } from 'node:crypto';
import { commit, put } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { TargetClock } from '../sla/clock.js';
import { eventItem } from '../webhooks/emit.js';
import { Message, Ticket, TicketNumber } from './entities.js';
import { ticketChangeEvents } from './events.js';
import { eventCustomer, eventTicket, type TicketItem, toDetail } from './present.js';
import { clockOf } from './sla.js';
import { countsUpdate, sumDeltas } from './stats.js';
import { loadThread } from './thread.js';
import { applyChanges, customerCopyUpdate } from './update.js';
import { MERGED_PER_TICKET, type SenderType, type Status, UNMERGE_DAYS } from './values.js';
import { assertWritable } from './writable.js';

/** A customer a merge added to the target (`from`: the merged ticket they came with). */
export interface TicketCustomer {
  id: string;
  email: string;
  name: string;
  from: string;
}

/** What a merged ticket keeps to be unmerged: where it went, when, and the status it had. */
export interface MergeRecord {
  into: string;
  at: string;
  status: Status;
  closedAt?: string;
  /** The target's last message before the merge, when the merged thread's was later (unmerge gives it back). */
  targetLast?: { at: string; sender: SenderType };
  /** The next-reply clock the merge started on the target for the source's waiting customer, and the one before (unmerge takes the wait back). */
  targetWait?: { startedAt: string; previous?: TargetClock };
}

const keyOf = (ctx: TenantContext, ticketId: string) => ({ projectId: ctx.projectId, env: ctx.env, ticketId });
const getTicket = async (ctx: TenantContext, ticketId: string) =>
  (await Ticket.get(keyOf(ctx, ticketId)).go()).data ?? undefined;

export const otherCustomersOf = (t: Pick<TicketItem, 'otherCustomers'>) =>
  (t.otherCustomers as TicketCustomer[] | undefined) ?? [];
const recordOf = (t: TicketItem) => t.merge as MergeRecord;

/** Whether an address is one of the ticket's customers: its own, or one a merge added. */
export const isCustomerOf = (t: TicketItem, address: string) =>
  t.customerEmail === address || otherCustomersOf(t).some((c) => c.email === address);

/**
 * The ticket that answers for this one: itself, or the end of its chain of merges. Everything that
 * pointed at a merged ticket (its reply address, its mails' Message-IDs, its page link) reaches it.
 */
export async function currentTicket(ctx: TenantContext, ticket: TicketItem | undefined) {
  let at = ticket;
  // A chain is at most as long as the tickets one thread may show; a longer one is never written.
  for (let hops = 0; at?.mergedInto && hops <= MERGED_PER_TICKET; hops++) at = await getTicket(ctx, at.mergedInto);
  return at;
}

/** The ticket with this number in the tenant, followed through its merges. */
export async function ticketByNumber(ctx: TenantContext, number: number) {
  const { data } = await TicketNumber.get({ projectId: ctx.projectId, env: ctx.env, number }).go();
  return data ? currentTicket(ctx, await getTicket(ctx, data.ticketId)) : undefined;
}

/** The ticket a merge goes into, followed through its merges; another project's names it (422), else 404. */
async function targetOf(ctx: TenantContext, into: string, projectIds: readonly string[]) {
  const found = await getTicket(ctx, into);
  if (!found) {
    for (const projectId of projectIds.filter((id) => id !== ctx.projectId)) {
      const { data } = await Ticket.get({ projectId, env: ctx.env, ticketId: into }).go();
      if (data) throw problem('ticket.merge_other_project', { projectId });
    }
    throw errors.notFound('Ticket');
  }
  return currentTicket(ctx, found);
}

/** The console's merge: the target named by its number; a source the caller cannot see is 404 first. */
export async function mergeByNumber(ctx: TenantContext, ticketId: string, number: number) {
  if (!(await getTicket(ctx, ticketId))) throw errors.notFound('Ticket');
  const target = Number.isSafeInteger(number) && number > 0 ? await ticketByNumber(ctx, number) : undefined;
  if (!target) throw errors.validation([{ field: 'into', in: 'body', message: 'No ticket has this number' }]);
  return mergeTicket(ctx, ticketId, target.ticketId, [ctx.projectId]);
}

/** An internal note recording a merge or unmerge in a thread (written with it). */
const auditNote = (ctx: TenantContext, ticketId: string, body: string, createdAt: string) =>
  put(
    Message.create({
      ...keyOf(ctx, ticketId),
      messageId: randomUUID(),
      senderType: 'staff',
      visibility: 'internal',
      body,
      createdAt,
    }),
  );

/**
 * POST /tickets/{ticketId}/merge: the ticket (the source) joins another (the target, followed through
 * its own merges). Nothing moves: the target's thread reads the source's partition too, so an unmerge
 * restores both exactly. In one transaction, each side written only if unchanged since read: the source
 * closes, read-only, with its undo record; the target lists it (and whatever was merged into it) and
 * takes its customers; an internal note in each thread; `ticket.merged`.
 */
export async function mergeTicket(ctx: TenantContext, ticketId: string, into: string, projectIds: readonly string[]) {
  if (into === ticketId) throw problem('ticket.merge_into_self');
  const plan = async () => {
    const source = await getTicket(ctx, ticketId);
    if (!source) throw errors.notFound('Ticket');
    assertWritable(source);
    const target = await targetOf(ctx, into, projectIds);
    if (!target) throw errors.notFound('Ticket');
    if (target.ticketId === ticketId) throw problem('ticket.merge_loop', { target: into });
    const shown = [...(target.mergedFrom ?? []), ticketId, ...(source.mergedFrom ?? [])];
    if (shown.length > MERGED_PER_TICKET) throw problem('ticket.merge_too_many', { limit: MERGED_PER_TICKET });
    const now = new Date().toISOString();
    // The target's thread shows the source's messages: its last message is the later of the two (the
    // merge's own notes are records, not messages, and move neither).
    const adopts = source.lastMessageAt > target.lastMessageAt;
    // A source whose customer waits for an answer hands that wait to the target: its clock counts it.
    const waiting = source.lastSenderType === 'customer' && source.status !== 'resolved' && source.status !== 'closed';
    const joining = applyChanges(
      ctx,
      target,
      {
        mergedFrom: shown,
        otherCustomers: joinedCustomers(target, source),
        ...(adopts ? { lastMessageAt: source.lastMessageAt, lastSenderType: source.lastSenderType } : {}),
      },
      now,
      { countsApart: true, ...(waiting ? { activity: 'customerMessage' as const } : {}) },
    );
    const waitBefore = clockOf(target)?.targets.nextReply;
    const waitAfter = clockOf(joining.after)?.targets.nextReply;
    const handed = waitAfter && waitAfter.startedAt !== waitBefore?.startedAt ? waitAfter : undefined;
    const record: MergeRecord = {
      into: target.ticketId,
      at: now,
      status: source.status,
      ...(source.closedAt ? { closedAt: source.closedAt } : {}),
      ...(adopts ? { targetLast: { at: target.lastMessageAt, sender: target.lastSenderType } } : {}),
      ...(handed
        ? { targetWait: { startedAt: handed.startedAt, ...(waitBefore ? { previous: waitBefore } : {}) } }
        : {}),
    };
    const closing = applyChanges(ctx, source, { status: 'closed', mergedInto: target.ticketId, merge: record }, now, {
      countsApart: true,
    });
    return { source, target, sourceChange: closing, targetChange: joining, now };
  };
  const done = await commitPair(ctx, 'ticket.merged', plan, (p) => [
    `Merged into ticket #${p.target.number}.`,
    `Ticket #${p.source.number} was merged into this ticket.`,
  ]);
  const thread = await loadThread(ctx, done.target.ticketId);
  return toDetail(ctx, thread.ticket, thread);
}

/** The target's customers after a merge: the source's own (when not the target's) and those merges gave it. */
function joinedCustomers(target: TicketItem, source: TicketItem): TicketCustomer[] {
  const joined = [...otherCustomersOf(target)];
  const candidates = [
    { id: source.customerId, email: source.customerEmail, name: source.customerName, from: source.ticketId },
    ...otherCustomersOf(source),
  ];
  for (const c of candidates) if (!isCustomerOf({ ...target, otherCustomers: joined }, c.email)) joined.push(c);
  return joined;
}

/** A merge or unmerge as planned: both tickets' writes, each conditioned on the version read. */
interface Pair {
  source: TicketItem;
  target: TicketItem;
  sourceChange: ReturnType<typeof applyChanges>;
  targetChange: ReturnType<typeof applyChanges>;
  now: string;
}

/**
 * Commits a merge or unmerge in one transaction: both tickets, an internal note in each thread, the
 * event (`ticket` is the target, `source` the merged one) with the source's status events, and the
 * source's copy under its customer; planned again when either ticket changed meanwhile.
 */
async function commitPair(
  ctx: TenantContext,
  event: 'ticket.merged' | 'ticket.unmerged',
  plan: () => Promise<Pair>,
  notes: (p: Pair) => [string, string],
) {
  let next = await plan();
  await commit({
    items: () => {
      const [onSource, onTarget] = notes(next);
      const target = next.targetChange.after;
      return {
        source: next.sourceChange.writes,
        target: next.targetChange.writes,
        // Both tickets may move the list counts (the source closes, the target's last sender changes).
        counts: countsUpdate(ctx, sumDeltas(next.sourceChange.deltas, next.targetChange.deltas)),
        notes: [
          auditNote(ctx, next.source.ticketId, onSource, next.now),
          auditNote(ctx, next.target.ticketId, onTarget, next.now),
        ],
        events: [
          eventItem(ctx, event, {
            ticket: eventTicket(target),
            customer: eventCustomer(target),
            source: { id: next.source.ticketId, number: next.source.number },
          }),
          ...ticketChangeEvents(ctx, next.source, next.sourceChange.after),
        ],
        customerCopy: customerCopyUpdate(ctx, next.sourceChange.after),
      };
    },
    optional: ['customerCopy'],
    refused: async () => {
      next = await plan();
    },
    exhausted: () => errors.conflict('The ticket'),
  });
  return next;
}

/**
 * POST /tickets/{ticketId}/unmerge (the merged ticket), within UNMERGE_DAYS of the merge: the ticket
 * gets its status back and leaves the target's thread with the tickets merged into it and the customers
 * it brought. Messages written to the target meanwhile stay there. A target merged since is read-only
 * (409 `ticket.merged`: unmerge it first).
 */
export async function unmergeTicket(ctx: TenantContext, ticketId: string) {
  const plan = async () => {
    const source = await getTicket(ctx, ticketId);
    if (!source) throw errors.notFound('Ticket');
    if (!source.mergedInto) throw problem('ticket.not_merged');
    const record = recordOf(source);
    if (Date.now() - Date.parse(record.at) > UNMERGE_DAYS * 86_400_000)
      throw problem('ticket.merge_final', { mergedAt: record.at, days: UNMERGE_DAYS });
    const target = await getTicket(ctx, record.into);
    if (!target) throw errors.notFound('Ticket');
    assertWritable(target);
    const leaving = new Set([ticketId, ...(source.mergedFrom ?? [])]);
    const now = new Date().toISOString();
    // The target's last message goes back to its own when it is still the one the merge gave it.
    const restore = record.targetLast && target.lastMessageAt === source.lastMessageAt ? record.targetLast : undefined;
    const reopening = applyChanges(
      ctx,
      source,
      { status: record.status, closedAt: record.closedAt, mergedInto: undefined, merge: undefined },
      now,
      { unmerging: true, countsApart: true },
    );
    const leavingTarget = applyChanges(
      ctx,
      target,
      {
        mergedFrom: (target.mergedFrom ?? []).filter((id) => !leaving.has(id)),
        otherCustomers: otherCustomersOf(target).filter((c) => !leaving.has(c.from)),
        ...(restore ? { lastMessageAt: restore.at, lastSenderType: restore.sender } : {}),
      },
      now,
      { countsApart: true, ...(record.targetWait ? { waitTakenBack: record.targetWait } : {}) },
    );
    return { source, target, sourceChange: reopening, targetChange: leavingTarget, now };
  };
  await commitPair(ctx, 'ticket.unmerged', plan, (p) => [
    `Unmerged from ticket #${p.target.number}.`,
    `Ticket #${p.source.number} was unmerged from this ticket.`,
  ]);
  const thread = await loadThread(ctx, ticketId);
  return toDetail(ctx, thread.ticket, thread);
}

import { createWriteTransaction } from 'electrodb';
import { commit, put, remove } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { needs, type SlaSetup, slaSetup } from '../sla/setup.js';
import { Tag, Ticket } from './entities.js';
import type { TicketItem } from './present.js';
import { factsOf } from './sla.js';
import { inAdditionOrder, tagKeyOf, uniqueTags } from './tags.js';
import { applyChanges } from './update.js';
import { assertWritable } from './writable.js';

const entities = { ticket: Ticket, tag: Tag };

/**
 * Adds or removes a tag next to a check that the ticket exists and is not merged, in one transaction;
 * then reads the tag list. Adding a tag already there (in any case) and removing one that is not there
 * change nothing. Removing one also removes it from the tickets merged into this one, whose tags it shows.
 */
export async function changeTag(ctx: TenantContext, ticketId: string, rawTag: string, action: 'add' | 'remove') {
  const key = { projectId: ctx.projectId, env: ctx.env, ticketId };
  const tag = rawTag.trim();
  const { data: ticket } = await Ticket.get(key).go();
  if (!ticket) throw errors.notFound('Ticket');
  assertWritable(ticket);
  const setup = await slaSetup(ctx);
  if (needs(setup).tags) await changeTagChoosingPolicy(ctx, ticket, tag, action, setup);
  else await changeTagOnly(ctx, ticket, tag, action);
  return { id: ticketId, tags: await shownTags(ctx, [ticketId, ...(ticket.mergedFrom ?? [])]) };
}

async function changeTagOnly(ctx: TenantContext, ticket: TicketItem, tag: string, action: 'add' | 'remove') {
  const { ticketId } = ticket;
  const key = { projectId: ctx.projectId, env: ctx.env, ticketId };
  const merged = action === 'remove' ? (ticket.mergedFrom ?? []) : [];
  const { canceled, data } = await createWriteTransaction(entities, (e) => [
    e.ticket
      .check(key)
      .where((a, op) => `${op.exists(a.ticketId)} AND ${op.notExists(a.mergedInto)}`)
      .commit(),
    action === 'add'
      ? e.tag.create({ ...key, tagKey: tagKeyOf(tag), tag, createdAt: new Date().toISOString() }).commit()
      : e.tag.delete({ ...key, tagKey: tagKeyOf(tag) }).commit(),
    ...merged.map((id) => e.tag.delete({ ...key, ticketId: id, tagKey: tagKeyOf(tag) }).commit()),
  ]).go();
  if (canceled && data[0]?.rejected) {
    const { data: now } = await Ticket.get(key).go();
    if (now) assertWritable(now);
    throw errors.notFound('Ticket');
  }
  if (canceled && data[1]?.code !== 'ConditionalCheckFailed')
    throw new Error(`Tag change on ${ticketId} failed: ${data[1]?.code}`);
}

/**
 * A tag change where SLA policies match on tags: the ticket's write (its clock under the policy the new
 * tags choose, conditional on its version) commits with the tag's, so the clock never lags the tags.
 */
async function changeTagChoosingPolicy(
  ctx: TenantContext,
  first: TicketItem,
  tag: string,
  action: 'add' | 'remove',
  setup: SlaSetup,
) {
  const key = { projectId: ctx.projectId, env: ctx.env, ticketId: first.ticketId };
  let ticket = first;
  const plan = async () => {
    const facts = await factsOf(ticket, setup);
    const own = facts.tags ?? [];
    const had = own.some((t) => tagKeyOf(t) === tagKeyOf(tag));
    // Adding a tag already there or removing one that is not changes nothing (merged tickets' tags aside).
    if (had === (action === 'add')) return { tagWrites: [] };
    const tags = action === 'add' ? [...own, tag] : own.filter((t) => tagKeyOf(t) !== tagKeyOf(tag));
    const next = applyChanges(ctx, ticket, {}, new Date().toISOString(), {
      setup,
      facts: { ...facts, tags },
      rechoose: true,
    });
    const tagWrite =
      action === 'add'
        ? put(Tag.create({ ...key, tagKey: tagKeyOf(tag), tag, createdAt: next.after.updatedAt }))
        : remove(Tag.delete({ ...key, tagKey: tagKeyOf(tag) }));
    return { ticketWrites: next.writes, tagWrites: [tagWrite] };
  };
  let planned = await plan();
  const merged = action === 'remove' ? (ticket.mergedFrom ?? []) : [];
  await commit({
    items: () => ({
      ticket: planned.ticketWrites,
      tag: planned.tagWrites,
      merged: merged.map((id) => remove(Tag.delete({ ...key, ticketId: id, tagKey: tagKeyOf(tag) }))),
    }),
    refused: async () => {
      const { data } = await Ticket.get(key).go();
      if (!data) throw errors.notFound('Ticket');
      assertWritable(data);
      ticket = data;
      planned = await plan();
    },
    exhausted: () => errors.conflict('The ticket'),
  });
}

/** The tags a ticket shows: its own, then those of the tickets merged into it (as thread.ts lists them). */
async function shownTags(ctx: TenantContext, ticketIds: string[]) {
  const lists = await Promise.all(
    ticketIds.map(async (ticketId) => {
      const key = { projectId: ctx.projectId, env: ctx.env, ticketId };
      return inAdditionOrder((await Tag.query.byTicket(key).go({ pages: 'all' })).data);
    }),
  );
  return uniqueTags(lists.flat()).map((t) => t.tag);
}

import { createWriteTransaction } from 'electrodb';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { Tag, Ticket } from './entities.js';
import { assertWritable } from './writable.js';

/** Tags keep their case but compare case-insensitively. */
export const tagKeyOf = (tag: string) => tag.trim().toLowerCase();

/** Trimmed, de-duplicated case-insensitively (first spelling wins). */
export function uniqueTags(tags: string[]) {
  const seen = new Map<string, { tagKey: string; tag: string }>();
  for (const raw of tags) {
    const tag = raw.trim();
    if (!seen.has(tagKeyOf(tag))) seen.set(tagKeyOf(tag), { tagKey: tagKeyOf(tag), tag });
  }
  return [...seen.values()];
}

/** Tags in the order they were added: a create's in the order given, later ones after them. */
export const inAdditionOrder = (tags: Array<{ tag: string; createdAt: string; position?: number }>) =>
  [...tags]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.position ?? 0) - (b.position ?? 0))
    .map((t) => t.tag);

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
  return { id: ticketId, tags: await shownTags(ctx, [ticketId, ...(ticket.mergedFrom ?? [])]) };
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

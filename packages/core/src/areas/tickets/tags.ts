import { createWriteTransaction } from 'electrodb';
import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { Tag, Ticket } from './entities.js';

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

async function tagsOf(ctx: TenantContext, ticketId: string) {
  const { data } = await Tag.query.byTicket({ projectId: ctx.projectId, env: ctx.env, ticketId }).go({ pages: 'all' });
  return { id: ticketId, tags: inAdditionOrder(data) };
}

const entities = { ticket: Ticket, tag: Tag };

/**
 * Adds or removes a tag next to a check that the ticket exists, in one transaction; then reads the
 * tag list. Adding a tag already there (in any case) and removing one that is not there change nothing.
 */
export async function changeTag(ctx: TenantContext, ticketId: string, rawTag: string, action: 'add' | 'remove') {
  const key = { projectId: ctx.projectId, env: ctx.env, ticketId };
  const tag = rawTag.trim();
  const { canceled, data } = await createWriteTransaction(entities, (e) => [
    e.ticket
      .check(key)
      .where((a, op) => op.exists(a.ticketId))
      .commit(),
    action === 'add'
      ? e.tag.create({ ...key, tagKey: tagKeyOf(tag), tag, createdAt: new Date().toISOString() }).commit()
      : e.tag.delete({ ...key, tagKey: tagKeyOf(tag) }).commit(),
  ]).go();
  if (canceled && data[0]?.rejected) throw errors.notFound('Ticket');
  if (canceled && data[1]?.code !== 'ConditionalCheckFailed')
    throw new Error(`Tag change on ${ticketId} failed: ${data[1]?.code}`);
  return tagsOf(ctx, ticketId);
}

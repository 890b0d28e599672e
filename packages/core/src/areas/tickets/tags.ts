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

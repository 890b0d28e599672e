/**
 * Whether the item `id` is among the first `max` of `items` in creation order (`createdAt`, then id).
 * A create checks the count first, but concurrent creates all pass that check: each one reads the
 * items again (consistently) after its write, and those ranked past the cap delete themselves, so
 * exactly the first `max` stay whatever the interleaving.
 */
export function withinCap<T extends { createdAt: string }>(
  items: T[],
  max: number,
  idOf: (t: T) => string,
  id: string,
) {
  const ranked = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || idOf(a).localeCompare(idOf(b)));
  const rank = ranked.findIndex((t) => idOf(t) === id);
  return rank >= 0 && rank < max;
}

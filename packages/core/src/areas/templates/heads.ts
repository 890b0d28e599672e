import { type ItemRef, parseRef } from './keys.js';
import { getHeads, type Head, type Owner, type Wanted, wantedId } from './store.js';

/** Apart from render-set.ts so the send path can check a template's layout and partials without compiling them. */

const partialWant = (qualified: string): Wanted | undefined => {
  const ref = parseRef(qualified);
  return ref ? { ref, type: 'partial' } : undefined;
};

/**
 * Project templates wrap only in the layout linked at import; account templates resolve theirs by
 * key at send time. Either way an absent layout renders the body unwrapped.
 */
export const layoutRefOf = (head: Head): ItemRef | undefined => {
  if (!head.layoutKey || (head.scope === 'project' && !head.layoutLinked)) return undefined;
  return parseRef(head.layoutKey, head.scope);
};

/**
 * The heads a root renders with: its layout and every partial, nested ones too, loaded breadth-first
 * (one BatchGetItem per level: usually the layout and the template's partials, then theirs).
 * Partials by qualified key; references that do not resolve are simply absent.
 */
export async function loadHeads(
  owner: Owner,
  root: Head,
  layoutRef?: ItemRef,
): Promise<{ layout?: Head; partials: Map<string, Head> }> {
  let layout: Head | undefined;
  const partials = new Map<string, Head>();
  const asked = new Set<string>();
  const want = (refs: string[]) =>
    refs.map(partialWant).filter((w): w is Wanted => {
      if (!w || asked.has(wantedId(w))) return false;
      asked.add(wantedId(w));
      return true;
    });

  let pending: Wanted[] = [
    ...(layoutRef ? [{ ref: layoutRef, type: 'layout' as const }] : []),
    ...want(root.referencedPartials),
  ];
  const [first] = pending;
  if (layoutRef && first) asked.add(wantedId(first));
  while (pending.length) {
    const found = await getHeads(owner, pending);
    const next: Wanted[] = [];
    for (const w of pending) {
      const head = found.get(wantedId(w));
      if (!head) continue;
      if (w.type === 'layout') layout = head;
      else partials.set(wantedId(w).slice('partial:'.length), head);
      next.push(...want(head.referencedPartials));
    }
    pending = next;
  }
  return { ...(layout ? { layout } : {}), partials };
}

import { cachedVersion, compileVersion, type Compiled } from './compile.js';
import { parseRef, type ItemRef } from './keys.js';
import { getHeads, getSources, versionId, wantedId, type Head, type Owner, type Wanted } from './store.js';

export interface Piece {
  head: Head;
  compiled: Compiled;
}

/** A template or layout with everything it needs to render: its layout and every partial, nested ones too. */
export interface RenderSet {
  root: Piece;
  layout?: Piece;
  /** Partial functions by qualified key; unresolved references render empty. */
  partials: Record<string, Compiled['render']>;
  /** By qualified key. */
  partialPieces: Map<string, Piece>;
  unresolvedPartials: string[];
}

const partialWant = (qualified: string): Wanted | undefined => {
  const ref = parseRef(qualified);
  return ref ? { ref, type: 'partial' } : undefined;
};

const empty = () => '';

/**
 * Loads heads breadth-first (one BatchGetItem per level: usually the layout and the template's
 * partials, then theirs), then the sources of versions not compiled yet in this Lambda.
 */
export async function loadRenderSet(
  owner: Owner,
  root: Head,
  layoutRef?: ItemRef,
  /** The root compiled from a source not stored yet (an import being checked). */
  rootCompiled?: Compiled,
): Promise<RenderSet> {
  let layout: Head | undefined;
  const partialHeads = new Map<string, Head>();
  const asked = new Set<string>();
  const want = (refs: string[]) =>
    refs.map(partialWant).filter((w): w is Wanted => !!w && !asked.has(wantedId(w)) && (asked.add(wantedId(w)), true));

  let pending: Wanted[] = [...(layoutRef ? [{ ref: layoutRef, type: 'layout' as const }] : []), ...want(root.referencedPartials)];
  if (layoutRef) asked.add(wantedId(pending[0]!));
  while (pending.length) {
    const found = await getHeads(owner, pending);
    const next: Wanted[] = [];
    for (const w of pending) {
      const head = found.get(wantedId(w));
      if (!head) continue;
      if (w.type === 'layout') layout = head;
      else partialHeads.set(wantedId(w).slice('partial:'.length), head);
      next.push(...want(head.referencedPartials));
    }
    pending = next;
  }

  const heads = [root, ...(layout ? [layout] : []), ...partialHeads.values()];
  const hits = new Map(heads.map((h) => [versionId(h), cachedVersion(versionId(h))]));
  if (rootCompiled) hits.set(versionId(root), rootCompiled);
  const missing = heads.filter((h) => !hits.get(versionId(h)));
  const sources = missing.length ? await getSources(owner, missing) : new Map<string, string>();
  const piece = (head: Head): Piece => {
    const source = sources.get(versionId(head));
    const compiled = hits.get(versionId(head)) ?? (source === undefined ? undefined : compileVersion(versionId(head), head.scope, source));
    if (!compiled) throw new Error(`Source of ${head.type} ${head.key} v${head.version} is missing`);
    return { head, compiled };
  };

  const partialPieces = new Map([...partialHeads].map(([key, head]) => [key, piece(head)]));
  const partials: RenderSet['partials'] = {};
  for (const [key, p] of partialPieces) partials[key] = p.compiled.render;
  const rootPiece = piece(root);
  const layoutPiece = layout ? piece(layout) : undefined;
  const unresolvedPartials = [
    ...new Set([rootPiece, ...(layoutPiece ? [layoutPiece] : []), ...partialPieces.values()].flatMap((p) => p.compiled.partials)),
  ].filter((key) => !partials[key]);
  for (const key of unresolvedPartials) partials[key] = empty;
  return { root: rootPiece, ...(layoutPiece ? { layout: layoutPiece } : {}), partials, partialPieces, unresolvedPartials };
}

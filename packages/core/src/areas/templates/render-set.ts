import { type Compiled, cachedVersion, compileVersion } from './compile.js';
import { loadHeads } from './heads.js';
import { bareKey, type ItemRef, qualifiedKey } from './keys.js';
import { getSources, type Head, type Owner, versionId } from './store.js';

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

const empty = () => '';

/** The template (or layout) itself, its layout and its partials, as the unknown-helper check names them. */
export const helperParts = (set: RenderSet) =>
  [set.root, ...(set.layout ? [set.layout] : []), ...set.partialPieces.values()].map((p) => ({
    part: p.head.type,
    key: qualifiedKey(p.head),
    unknownHelpers: p.compiled.unknownHelpers,
  }));

/** Loads the heads (see `loadHeads`), then the sources of versions not compiled yet in this Lambda. */
export async function loadRenderSet(
  owner: Owner,
  root: Head,
  layoutRef?: ItemRef,
  /** The root compiled from a source not stored yet (an import being checked). */
  rootCompiled?: Compiled,
): Promise<RenderSet> {
  const { layout, partials: partialHeads } = await loadHeads(owner, root, layoutRef);
  const heads = [root, ...(layout ? [layout] : []), ...partialHeads.values()];
  const hits = new Map(heads.map((h) => [versionId(h), cachedVersion(versionId(h))]));
  if (rootCompiled) hits.set(versionId(root), rootCompiled);
  const missing = heads.filter((h) => !hits.get(versionId(h)));
  const sources = missing.length ? await getSources(owner, missing) : new Map<string, string>();
  const piece = (head: Head): Piece => {
    const source = sources.get(versionId(head));
    const compiled =
      hits.get(versionId(head)) ??
      (source === undefined ? undefined : compileVersion(versionId(head), head.scope, source));
    if (!compiled) throw new Error(`Source of ${head.type} ${head.key} v${head.version} is missing`);
    return { head, compiled };
  };

  const partialPieces = new Map([...partialHeads].map(([key, head]) => [key, piece(head)]));
  // Null prototype: a partial may be named toString or constructor.
  const partials: RenderSet['partials'] = Object.create(null);
  for (const [key, p] of partialPieces) partials[key] = p.compiled.render;
  const rootPiece = piece(root);
  const layoutPiece = layout ? piece(layout) : undefined;
  const pieces = [rootPiece, ...(layoutPiece ? [layoutPiece] : []), ...partialPieces.values()];
  const inlines = new Set(pieces.flatMap((p) => Object.keys(p.compiled.inlines)));
  // The root's stored references include its subject's; a name some piece defines inline is not missing.
  const referenced = [...new Set([...root.referencedPartials, ...pieces.flatMap((p) => p.compiled.partials)])];
  const unresolvedPartials = referenced.filter((key) => !partials[key] && !inlines.has(bareKey(key)));
  for (const key of referenced) partials[key] ??= empty;
  preferInline(partials, inlines);
  return {
    root: rootPiece,
    ...(layoutPiece ? { layout: layoutPiece } : {}),
    partials,
    partialPieces,
    unresolvedPartials,
  };
}

/**
 * A partial file's `{{> content}}` is qualified at import (`@account/content` in an account item),
 * but Handlebars lets an inline `{{#*inline "content"}}` of the calling template win over stored
 * partials. Project keys are bare names, so Handlebars already does that for them; an account key
 * whose bare name some piece defines inline renders that inline definition when the call sees one.
 */
function preferInline(partials: RenderSet['partials'], inlines: Set<string>) {
  const stored = new Set(Object.values(partials));
  for (const key of Object.keys(partials)) {
    const name = bareKey(key);
    if (key === name || !inlines.has(name)) continue;
    const fallback = partials[key];
    if (!fallback) continue;
    partials[key] = ((context: unknown, options?: { partials?: Record<string, unknown> }) => {
      const inline = options?.partials?.[name];
      return typeof inline === 'function' && !stored.has(inline as Compiled['render'])
        ? (inline as Compiled['render'])(context, options as never)
        : fallback(context, options as never);
    }) as Compiled['render'];
  }
}

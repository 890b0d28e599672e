import type { TemplateDelegate } from 'handlebars';
import {
  detectVariables,
  type HelperUse,
  handlebars,
  type PartialCall,
  parseSource,
  qualifyPartials,
  type Reads,
  unknownHelpers,
} from './analyze.js';
import type { Scope } from './keys.js';

export interface Compiled {
  render: TemplateDelegate;
  /** Variables the source reads itself. */
  variables: string[];
  calls: PartialCall[];
  /** Qualified keys of the partials the source references (inline partials excluded). */
  partials: string[];
  /** Partials the source defines inline, by name, with what each reads. */
  inlines: Record<string, Reads>;
  /** Helpers the source calls that the environment does not have. */
  unknownHelpers: HelperUse[];
}

/** Compiled sources by `<id>:<version>` (a version never changes), bounded. */
const cache = new Map<string, Compiled>();
const MAX_CACHED = 500;

export const cachedVersion = (cacheKey: string) => cache.get(cacheKey);

/** Compiles a stored source once per version; `escape: false` for subjects, which are plain text. */
export function compileVersion(
  cacheKey: string,
  scope: Scope,
  source: string,
  options: { escape?: boolean } = {},
): Compiled {
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const { ast: _ast, ...compiled } = compileSource(scope, source, options);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? cacheKey);
  cache.set(cacheKey, compiled);
  return compiled;
}

/** `what` names the source in a parse error (`The subject`). */
export function compileSource(scope: Scope, source: string, options: { escape?: boolean; what?: string } = {}) {
  const ast = parseSource(source, options.what);
  const partials = qualifyPartials(ast, scope);
  const { variables, calls, inlines } = detectVariables(ast);
  const render = handlebars.compile(ast, { noEscape: options.escape === false });
  return { render, variables, calls, partials, inlines, unknownHelpers: unknownHelpers(ast), ast };
}

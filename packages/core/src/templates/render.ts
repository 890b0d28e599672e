import { marked } from 'marked';
import type { TenantContext } from '../auth/context.js';
import { errors } from '../http/errors.js';
import { compileVersion, type Compiled } from './compile.js';
import { parseRef, qualifiedKey, type ItemRef } from './keys.js';
import { loadRenderSet, type RenderSet } from './render-set.js';
import { templateNotFound } from './resolve.js';
import { wrapInShell } from './shell.js';
import { getHead, getVersion, versionId, type Head, type Owner } from './store.js';
import { renderStep, subjectCacheKey } from './subject.js';
import { htmlToText } from './text.js';
import { problem } from '../errors/problem.js';

export type RenderInput =
  /** `version`: the version recorded when the send was accepted; the current one when absent. */
  | { templateKey: string; variables: Record<string, unknown>; version?: number }
  | { subject: string; body: string; layout?: string };

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  templateKey?: string;
  templateVersion?: number;
  missingVariables: string[];
}

export { resolveTemplate } from './resolve.js';

/**
 * Loads a template (its current version, or the one asked for) with its layout and partials:
 * everything rendering and schema detection need.
 */
export async function loadTemplate(owner: Owner, key: string, version?: number): Promise<RenderSet | undefined> {
  const ref = parseRef(key);
  if (!ref) return undefined;
  if (version !== undefined) {
    const found = await getVersion(owner, { ref, type: 'template' }, version);
    if (!found) return undefined;
    const compiled = compileVersion(versionId(found.head), found.head.scope, found.source);
    return loadRenderSet(owner, found.head, layoutRefOf(found.head), compiled);
  }
  const head = await getHead(owner, { ref, type: 'template' });
  return head ? loadRenderSet(owner, head, layoutRefOf(head)) : undefined;
}

/**
 * Project templates wrap only in the layout linked at import; account templates resolve theirs by
 * key at send time. Either way an absent layout renders the body unwrapped.
 */
export const layoutRefOf = (head: Head): ItemRef | undefined => {
  if (!head.layoutKey || (head.scope === 'project' && !head.layoutLinked)) return undefined;
  return parseRef(head.layoutKey, head.scope);
};

/**
 * Every variable the template reads: subject, body, then layout (`body` excluded there), each
 * followed by its partials' variables as the call passes them (hash keys are provided by the call,
 * a context argument prefixes them).
 */
export function templateVariables(set: RenderSet, subject: Compiled = subjectOf(set.root.head)): string[] {
  const expand = (piece: Compiled, seen: string[]): string[] => [
    ...piece.variables,
    ...piece.calls.flatMap((call) => {
      const partial = set.partialPieces.get(call.name);
      if (!partial || seen.includes(call.name)) return [];
      return expand(partial.compiled, [...seen, call.name])
        .filter((v) => !call.hashKeys.includes(v.split('.')[0]!))
        .map((v) => (call.prefix ? `${call.prefix}.${v}` : v));
    }),
  ];
  const isLayout = set.root.head.type === 'layout';
  return [
    ...new Set([
      ...subject.variables,
      ...expand(set.root.compiled, []).filter((v) => !isLayout || v !== 'body'),
      ...(set.layout ? expand(set.layout.compiled, []).filter((v) => v !== 'body') : []),
    ]),
  ];
}

const subjectOf = (head: Head) => compileVersion(subjectCacheKey(head), head.scope, head.subject, { escape: false });

/** A variable is missing when its path does not resolve; paths through a list count as present. */
function isMissing(path: string, variables: Record<string, unknown>): boolean {
  let current: unknown = variables;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) return false;
    if (current === null || typeof current !== 'object') return true;
    current = (current as Record<string, unknown>)[part];
  }
  return current === undefined;
}

/** Renders a template send or a custom (Markdown) send to subject, HTML and text. Nothing is stored. */
export async function renderEmail(ctx: TenantContext, input: RenderInput): Promise<RenderedEmail> {
  if ('templateKey' in input) {
    const set = await loadTemplate(ctx, input.templateKey, input.version);
    if (!set) throw templateNotFound(input.version === undefined ? input.templateKey : `${input.templateKey} (version ${input.version})`);
    return renderTemplate(set, input.variables);
  }
  return renderCustom(ctx, input);
}

export function renderTemplate(set: RenderSet, variables: Record<string, unknown>): RenderedEmail {
  const { root, layout, partials } = set;
  const options = { partials };
  const subject = renderStep(() => subjectOf(root.head).render(variables, options)).trim();
  const body = renderStep(() => root.compiled.render(variables, options));
  const html = layout ? renderStep(() => layout.compiled.render({ ...variables, body }, options)) : body;
  return {
    subject,
    html,
    text: htmlToText(html),
    templateKey: qualifiedKey(root.head),
    templateVersion: root.head.version,
    missingVariables: templateVariables(set).filter((v) => isMissing(v, variables)),
  };
}

async function renderCustom(ctx: TenantContext, input: { subject: string; body: string; layout?: string }): Promise<RenderedEmail> {
  const body = marked.parse(input.body, { async: false, gfm: true });
  let html: string;
  if (input.layout) {
    const ref = parseRef(input.layout);
    const head = ref && (await getHead(ctx, { ref, type: 'layout' }));
    if (!head) throw problem('template.not_found', { layout: input.layout });
    const { root, partials } = await loadRenderSet(ctx, head);
    html = renderStep(() => root.compiled.render({ subject: input.subject, body }, { partials }));
  } else {
    html = wrapInShell(input.subject, body);
  }
  return { subject: input.subject, html, text: htmlToText(html), missingVariables: [] };
}

import { Marked } from 'marked';
import { problem } from '../../kernel/errors/problem.js';
import { boundMarkdown } from '../../kernel/markdown-bounds.js';
import type { TenantContext } from '../../kernel/tenant.js';
import type { PartialCall, Reads } from './analyze.js';
import { type Compiled, compileVersion } from './compile.js';
import { layoutRefOf } from './heads.js';
import { bareKey, parseRef, qualifiedKey } from './keys.js';
import { helperParts, loadRenderSet, type RenderSet } from './render-set.js';
import { refuseUnknownHelpers, templateNotFound } from './resolve.js';
import { safeLinks } from './safe-links.js';
import { wrapInShell } from './shell.js';
import { getHead, getVersion, type Head, type Owner, versionId } from './store.js';
import { renderStep, subjectCacheKey } from './subject.js';
import { htmlToText } from './text.js';

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

/** What a call passes into a partial: a hash key stands for the caller's path it was given, anything else reads under the call's context. */
function throughCall(call: PartialCall, variable: string): string[] {
  const [head = '', ...rest] = variable.split('.');
  if (Object.hasOwn(call.hash, head)) {
    const to = call.hash[head];
    return to === null || to === undefined ? [] : [[to, ...rest].join('.')];
  }
  return [call.prefix ? `${call.prefix}.${variable}` : variable];
}

/**
 * Every variable the template reads: subject, body, then layout (`body` excluded there), each
 * followed by its partials' variables as the call passes them (a hash key stands for the path it was
 * given, a context argument prefixes the rest). A call reaches the partial defined inline in the same
 * source first, then one defined inline in the template (or layout) being rendered, then a stored one.
 */
export function templateVariables(set: RenderSet, subject: Compiled = subjectOf(set.root.head)): string[] {
  const expand = (reads: Reads, own: Record<string, Reads>, outer: Record<string, Reads>, seen: string[]): string[] => [
    ...reads.variables,
    ...reads.calls.flatMap((call) => {
      if (seen.includes(call.name)) return [];
      const inline = own[call.name] ?? outer[bareKey(call.name)];
      const stored = inline ? undefined : set.partialPieces.get(call.name)?.compiled;
      const target = inline ?? stored;
      if (!target) return [];
      return expand(target, stored ? stored.inlines : own, outer, [...seen, call.name]).flatMap((v) =>
        throughCall(call, v),
      );
    }),
  ];
  const { root, layout } = set;
  const isLayout = root.head.type === 'layout';
  return [
    ...new Set([
      ...expand(subject, subject.inlines, root.compiled.inlines, []),
      ...expand(root.compiled, root.compiled.inlines, root.compiled.inlines, []).filter(
        (v) => !isLayout || v !== 'body',
      ),
      ...(layout
        ? expand(layout.compiled, layout.compiled.inlines, layout.compiled.inlines, []).filter((v) => v !== 'body')
        : []),
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
    if (!set)
      throw templateNotFound(
        input.version === undefined ? input.templateKey : `${input.templateKey} (version ${input.version})`,
      );
    return renderTemplate(set, input.variables);
  }
  return renderCustom(ctx, input);
}

export function renderTemplate(set: RenderSet, variables: Record<string, unknown>): RenderedEmail {
  const { root, layout, partials } = set;
  const subjectCompiled = subjectOf(root.head);
  const templateKey = qualifiedKey(root.head);
  refuseUnknownHelpers([
    { part: 'subject', key: templateKey, unknownHelpers: subjectCompiled.unknownHelpers },
    ...helperParts(set),
  ]);
  const options = { partials };
  const subject = renderStep({ part: 'subject', key: templateKey }, () =>
    subjectCompiled.render(variables, options),
  ).trim();
  const body = renderStep({ part: 'template', key: templateKey }, () => root.compiled.render(variables, options));
  const html = layout
    ? renderStep({ part: 'layout', key: qualifiedKey(layout.head) }, () =>
        layout.compiled.render({ ...variables, body }, options),
      )
    : body;
  return {
    subject,
    html,
    text: htmlToText(html),
    templateKey,
    templateVersion: root.head.version,
    missingVariables: templateVariables(set, subjectCompiled).filter((v) => isMissing(v, variables)),
  };
}

/**
 * A custom message's Markdown (one-off sends, the service's own mail: ticket replies, notices). A link
 * or image whose target is not http(s), mailto or relative keeps only its text: a `javascript:` or
 * `data:` link in a reply must not reach the customer as a live link from the project's domain.
 */
const customMarkdown = new Marked({
  gfm: true,
  hooks: { preprocess: boundMarkdown },
  renderer: safeLinks,
});

async function renderCustom(
  ctx: TenantContext,
  input: { subject: string; body: string; layout?: string },
): Promise<RenderedEmail> {
  const body = customMarkdown.parse(input.body, { async: false });
  let html: string;
  if (input.layout) {
    const ref = parseRef(input.layout);
    const head = ref && (await getHead(ctx, { ref, type: 'layout' }));
    if (!head) throw problem('template.not_found', { layout: input.layout });
    const set = await loadRenderSet(ctx, head);
    refuseUnknownHelpers(helperParts(set));
    html = renderStep({ part: 'layout', key: qualifiedKey(head) }, () =>
      set.root.compiled.render({ subject: input.subject, body }, { partials: set.partials }),
    );
  } else {
    html = wrapInShell(input.subject, body);
  }
  return { subject: input.subject, html, text: htmlToText(html), missingVariables: [] };
}

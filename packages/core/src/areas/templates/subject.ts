import { errors } from '../../kernel/errors/common.js';
import { Problem, problem } from '../../kernel/errors/problem.js';
import { logger } from '../../kernel/logger.js';
import { PLAIN_LINE } from '../../kernel/mail/plain-line.js';
import { RenderTooLarge, withinLimits } from './budget.js';
import { layoutRefOf, loadHeads } from './heads.js';
import { parseRef, qualifiedKey } from './keys.js';
import { type Part, refuseUnknownHelpers } from './resolve.js';
import { getHead, type Head, type Owner, versionId } from './store.js';

/**
 * Runs one render step under the render limits (budget.ts). A failure left after the import-time checks
 * (a partial that includes itself without end, a dynamic partial name that does not exist, a render past
 * the limits) is the sender's 422, in our words: the exception's own text is logged, never answered.
 */
export function renderStep(where: Omit<Part, 'unknownHelpers'>, render: () => string): string {
  try {
    return withinLimits(render);
  } catch (err) {
    if (err instanceof Problem) throw err;
    logger.warn('Template render failed', { ...where, error: err as Error });
    throw problem('template.render_failed', {
      in: where.part,
      key: where.key,
      endless: err instanceof RangeError,
      tooLarge: err instanceof RenderTooLarge,
    });
  }
}

/** Compiled subjects share the compile cache with bodies, under their version's id. */
export const subjectCacheKey = (head: Pick<Head, 'id' | 'version'>) => `${versionId(head)}#subject`;

/**
 * The helpers a template (or layout), its layout and its partials call that do not exist, from what
 * import recorded on their heads (one BatchGetItem per nesting level, nothing compiled).
 */
async function helperUses(owner: Owner, head: Head): Promise<Part[]> {
  const { layout, partials } = await loadHeads(owner, head, layoutRefOf(head));
  const heads = [head, ...(layout ? [layout] : []), ...partials.values()];
  if (heads.every((h) => h.unknownHelpers !== undefined)) {
    return heads.map((h) => ({ part: h.type, key: qualifiedKey(h), unknownHelpers: h.unknownHelpers }));
  }
  // Items imported before unknown helpers were recorded: compile them this once (cached per version).
  const { helperParts, loadRenderSet } = await import('./render-set.js');
  return helperParts(await loadRenderSet(owner, head, layoutRefOf(head)));
}

/**
 * A custom send's layout, checked before the send is accepted (as a template send's parts are): it
 * exists, and neither it nor its partials call a helper that does not exist.
 */
export async function checkLayout(owner: Owner, layout: string): Promise<void> {
  const ref = parseRef(layout);
  const head = ref && (await getHead(owner, { ref, type: 'layout' }));
  if (!head) throw problem('template.not_found', { layout });
  refuseUnknownHelpers(await helperUses(owner, head));
}

/**
 * A template send, checked and its subject rendered with the send's variables, before the send is
 * accepted: a template, subject, layout or partial that calls a helper that does not exist is refused
 * now rather than failing at delivery. The check reads the layout's and partials' heads (one
 * BatchGetItem per nesting level), where import recorded their unknown helpers; nothing is compiled
 * but the subject. Handlebars is imported on the first template send, so the send path (the emails
 * Lambda) starts without it and never loads marked or the HTML-to-text converter.
 */
export async function renderSubject(owner: Owner, head: Head, variables: Record<string, unknown>): Promise<string> {
  const { compileVersion } = await import('./compile.js');
  const subject = compileVersion(subjectCacheKey(head), head.scope, head.subject, { escape: false });
  const key = qualifiedKey(head);
  refuseUnknownHelpers([
    { part: 'subject', key, unknownHelpers: subject.unknownHelpers },
    ...(await helperUses(owner, head)),
  ]);
  let renderPartials = {};
  if (subject.partials.length) {
    const { loadRenderSet } = await import('./render-set.js');
    ({ partials: renderPartials } = await loadRenderSet(owner, head));
  }
  return renderStep({ part: 'subject', key }, () => subject.render(variables, { partials: renderPartials })).trim();
}

/**
 * A template's subject as rendered with a send's variables is a header value: what a custom subject may
 * not hold, variables may not bring in (no header injection). Send and preview refuse it alike.
 */
export function refuseUnplainSubject(subject: string): void {
  if (!PLAIN_LINE.test(subject))
    throw errors.validation([
      {
        field: 'variables',
        in: 'body',
        message: "The template's subject, rendered with these variables, holds control characters or line breaks.",
      },
    ]);
}

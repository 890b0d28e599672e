import { errors } from '../http/errors.js';
import { versionId, type Head, type Owner } from './store.js';
import { problem } from '../errors/problem.js';

/** Runs one render step; a runtime failure (a helper given the wrong arguments) is the sender's 422. */
export function renderStep(render: () => string): string {
  try {
    return render();
  } catch (err) {
    throw problem('template.render_failed', { reason: (err as Error).message });
  }
}

/** Compiled subjects share the compile cache with bodies, under their version's id. */
export const subjectCacheKey = (head: Pick<Head, 'id' | 'version'>) => `${versionId(head)}#subject`;

/**
 * A template's subject rendered with the send's variables, for the send result. Handlebars is imported
 * on the first template send, so the send path (the emails Lambda) starts without it and never loads
 * marked or html-to-text; the template's partials are read only for a subject that calls one.
 */
export async function renderSubject(owner: Owner, head: Head, variables: Record<string, unknown>): Promise<string> {
  const { compileVersion } = await import('./compile.js');
  const subject = compileVersion(subjectCacheKey(head), head.scope, head.subject, { escape: false });
  let partials = {};
  if (subject.partials.length) {
    const { loadRenderSet } = await import('./render-set.js');
    ({ partials } = await loadRenderSet(owner, head));
  }
  return renderStep(() => subject.render(variables, { partials })).trim();
}

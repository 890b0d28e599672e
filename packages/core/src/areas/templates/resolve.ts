import { problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { parseRef, qualifiedKey } from './keys.js';
import { getHead, type Head } from './store.js';

/**
 * The current version of a template (one read), for validating a send before it is queued. Apart from
 * render.ts so the send path (the emails Lambda) does not load the renderer (handlebars, marked, the HTML-to-text converter) at init.
 */
export async function resolveTemplate(
  ctx: TenantContext,
  key: string,
): Promise<{ key: string; version: number; head: Head } | undefined> {
  const ref = parseRef(key);
  if (!ref) return undefined;
  const head = await getHead(ctx, { ref, type: 'template' });
  return head ? { key: qualifiedKey(ref), version: head.version, head } : undefined;
}

/** The same 422 from a send, a preview and a delivery, naming the key as the request field does. */
export const templateNotFound = (templateKey: string) => problem('template.not_found', { templateKey });

/** Which part of a send a helper stands in: a template's subject or body, its layout, or one of its partials. */
export interface Part {
  part: 'subject' | 'template' | 'layout' | 'partial';
  /** The qualified key of the template, layout or partial. */
  key: string;
  unknownHelpers?: { name: string; line: number }[];
}

/**
 * The same 422 from a send, a preview and a delivery for the first helper that does not exist:
 * Handlebars would throw at render time, so it is refused before anything renders or is queued.
 */
export function refuseUnknownHelpers(parts: Part[]): void {
  for (const { part, key, unknownHelpers } of parts) {
    const use = unknownHelpers?.[0];
    if (!use) continue;
    throw problem('template.unknown_helper', { helper: use.name, in: part, key, line: use.line });
  }
}

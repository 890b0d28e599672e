import type { TenantContext } from '../auth/context.js';
import { parseRef, qualifiedKey } from './keys.js';
import { getHead } from './store.js';

/**
 * The current version of a template (one read), for validating a send before it is queued. Apart from
 * render.ts so the send path (the emails Lambda) does not bundle the renderer (handlebars, marked, html-to-text).
 */
export async function resolveTemplate(ctx: TenantContext, key: string): Promise<{ key: string; version: number } | undefined> {
  const ref = parseRef(key);
  if (!ref) return undefined;
  const head = await getHead(ctx, { ref, type: 'template' });
  return head ? { key: qualifiedKey(ref), version: head.version } : undefined;
}

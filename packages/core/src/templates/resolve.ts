import type { TenantContext } from '../auth/context.js';
import { errors } from '../http/errors.js';
import { parseRef, qualifiedKey } from './keys.js';
import { getHead, type Head } from './store.js';
import { problem } from '../errors/problem.js';

/**
 * The current version of a template (one read), for validating a send before it is queued. Apart from
 * render.ts so the send path (the emails Lambda) does not load the renderer (handlebars, marked, html-to-text) at init.
 */
export async function resolveTemplate(ctx: TenantContext, key: string): Promise<{ key: string; version: number; head: Head } | undefined> {
  const ref = parseRef(key);
  if (!ref) return undefined;
  const head = await getHead(ctx, { ref, type: 'template' });
  return head ? { key: qualifiedKey(ref), version: head.version, head } : undefined;
}

/** The same 422 from a send, a preview and a delivery, naming the key as the request field does. */
export const templateNotFound = (templateKey: string) =>
  problem('template.not_found', { templateKey });

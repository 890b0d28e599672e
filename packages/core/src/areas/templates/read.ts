import { errors } from '../../kernel/errors/common.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { ACCOUNT_PREFIX, qualifiedKey } from './keys.js';
import {
  loadTemplate,
  type RenderedEmail,
  type RenderInput,
  renderEmail,
  renderTemplate,
  templateVariables,
} from './render.js';
import { templateNotFound } from './resolve.js';
import { type Head, listHeads } from './store.js';
import { refuseUnplainSubject } from './subject.js';

const byKey = (a: Head, b: Head) => a.key.localeCompare(b.key) || a.type.localeCompare(b.type);

/** Project items, then the shared `@account/` items; each sorted by key. */
export async function listTemplates(ctx: TenantContext) {
  const [project, account] = await Promise.all([listHeads(ctx, 'project'), listHeads(ctx, 'account')]);
  return [...project.sort(byKey), ...account.sort(byKey)].map((h) => ({
    key: qualifiedKey(h),
    name: h.name,
    type: h.type,
    scope: h.scope,
    subject: h.subject,
    version: h.version,
    layoutKey: h.layoutKey ?? null,
    updatedAt: h.updatedAt,
  }));
}

/** The spec's Template schema: the variables a template reads, its subject's and partials' included. */
export async function getTemplateSchema(ctx: TenantContext, key: string, account = false) {
  const set = await loadTemplate(ctx, account ? ACCOUNT_PREFIX + key : key);
  if (!set) throw errors.notFound('Template');
  const head = set.root.head;
  return { key: qualifiedKey(head), name: head.name, subject: head.subject, variables: templateVariables(set) };
}

/** Renders without sending or storing anything. */
export async function previewEmail(ctx: TenantContext, input: RenderInput & { format: 'html' | 'text' }) {
  let rendered: RenderedEmail;
  let detectedVariables: string[] = [];
  if ('templateKey' in input) {
    const set = await loadTemplate(ctx, input.templateKey);
    if (!set) throw templateNotFound(input.templateKey);
    rendered = renderTemplate(set, input.variables);
    refuseUnplainSubject(rendered.subject);
    detectedVariables = templateVariables(set);
  } else {
    rendered = await renderEmail(ctx, input);
  }
  return {
    subject: rendered.subject,
    ...(input.format === 'text' ? { text: rendered.text } : { html: rendered.html }),
    detectedVariables,
    missingVariables: rendered.missingVariables,
  };
}

import { randomBytes } from 'node:crypto';
import type { TestApp } from '../support/app.js';
import type { TenantFixture } from '../support/fixtures.js';

export const uniqueHandle = (prefix = 'help') => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Turns a project's help center on under a fresh handle (PATCH /projects/{id}); answers the handle. */
export async function openPortal(
  app: TestApp,
  t: TenantFixture,
  settings: Record<string, unknown> = {},
  slug = 'main',
) {
  const handle = uniqueHandle();
  const res = await app.call('PATCH', `/projects/${t.projects[slug]!.id}`, {
    key: t.liveKey,
    body: { portal: { handle, enabled: true, ...settings } },
  });
  if (res.status !== 200) throw new Error(`PATCH /projects answered ${res.status}: ${res.text}`);
  return handle;
}

export async function publish(
  app: TestApp,
  key: string,
  article: { title: string; body: string; categoryId?: string; status?: 'draft' | 'published' },
) {
  const res = await app.call('POST', '/articles', { key, body: { status: 'published', ...article } });
  if (res.status !== 200) throw new Error(`POST /articles answered ${res.status}: ${res.text}`);
  return res.body as { id: string; slug: string; title: string };
}

export async function category(app: TestApp, key: string, name: string) {
  const res = await app.call('POST', '/article-categories', { key, body: { name } });
  if (res.status !== 200) throw new Error(`POST /article-categories answered ${res.status}: ${res.text}`);
  return res.body as { id: string; slug: string };
}

/** A multipart request form as a browser sends it. */
export function requestForm(fields: Record<string, string>, files: { name: string; content: string }[] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const f of files) form.append('file', new Blob([f.content], { type: 'text/plain' }), f.name);
  return form;
}

import type { TestApp } from '../support/app.js';

export interface ImportFields {
  type?: string;
  key?: string;
  name?: string;
  subject?: string;
  layout?: string;
}

/** A multipart import request, as a browser or curl would send it (fetch sets the boundary). */
export function importForm(
  filename: string | undefined,
  content: string | Uint8Array | undefined,
  fields: ImportFields = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(name, value);
  if (content !== undefined) form.set('file', new Blob([content], { type: 'text/x-handlebars-template' }), filename);
  return form;
}

export const importer =
  (app: TestApp, key: string, options: { account?: boolean; headers?: Record<string, string> } = {}) =>
  (filename: string, content: string, fields: ImportFields = {}) =>
    app.call('POST', options.account ? '/account/email-templates/import' : '/email-templates/import', {
      key,
      rawBody: importForm(filename, content, fields),
      headers: options.headers,
    });

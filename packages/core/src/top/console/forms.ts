import * as v from 'valibot';
import { errors } from '../../kernel/errors/common.js';
import type { ConsoleRequest } from './guard.js';
import { html } from './html.js';

/**
 * A list page's filters, parsed with the API route's own query schema (one source of truth for what
 * a filter accepts). Empty form fields mean "no filter".
 */
export function filtersFrom<E extends v.ObjectEntries>(entries: E, query: Record<string, string | undefined>) {
  const given = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = v.safeParse(v.object(entries), given);
  if (!parsed.success) {
    throw errors.validation(
      parsed.issues.map((i) => ({ field: v.getDotPath(i) ?? '(query)', in: 'query' as const, message: i.message })),
    );
  }
  return parsed.output;
}

/** A form's fields, parsed with the API route's own body schema: the console accepts what the API accepts. */
export function bodyFrom<S extends v.GenericSchema>(schema: S, fields: Record<string, unknown>): v.InferOutput<S> {
  const parsed = v.safeParse(schema, fields);
  if (!parsed.success) {
    throw errors.validation(
      parsed.issues.map((i) => ({ field: v.getDotPath(i) ?? '(body)', in: 'body' as const, message: i.message })),
    );
  }
  return parsed.output;
}

export const csrfField = (req: ConsoleRequest) => html`<input type="hidden" name="csrf" value="${req.session.csrf}">`;

export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').slice(0, 19) : '—');

export const selectField = (
  name: string,
  label: string,
  options: readonly string[],
  current: string | undefined,
  blank = 'any',
) =>
  html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${blank ? html`<option value="">${blank}</option>` : ''}${options.map(
    (o) => html`<option value="${o}"${o === current ? html` selected` : ''}>${o}</option>`,
  )}</select></div>`;

export const textField = (name: string, label: string, current: string | undefined, type = 'text') =>
  html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${current ?? ''}"></div>`;

/** Previous/next links that keep the filters. */
export function pager(
  path: string,
  query: Record<string, string | undefined>,
  page: number,
  limit: number,
  total: number,
) {
  const link = (p: number) => {
    const params = new URLSearchParams(
      Object.entries({ ...query, page: String(p) }).filter((e): e is [string, string] => !!e[1]),
    );
    return `${path}?${params}`;
  };
  const last = Math.max(1, Math.ceil(total / limit));
  return html`<p class="muted">Page ${page} of ${last} (${total} in all)
${page > 1 ? html` · <a href="${link(page - 1)}">Previous</a>` : ''}${page < last ? html` · <a href="${link(page + 1)}">Next</a>` : ''}</p>`;
}

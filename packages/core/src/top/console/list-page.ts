import { pager } from './forms.js';
import { type ConsoleRequest, show } from './guard.js';
import { type Html, html } from './html.js';

/**
 * A list page of the console: a heading, a filter form (GET, so a filtered list is a link), a table of
 * rows or a line saying none match, and the pager. The filters are read by the API route's own query
 * schema (forms.ts `filtersFrom`), so a list filters the way its API does.
 */
export interface ListPage<R> {
  section: string;
  title: string;
  heading?: string;
  /** Shown between the heading and the filters (a chart). */
  before?: Html;
  /** The filter form's fields. */
  filters: Html[];
  columns: string[];
  rows: R[];
  row: (row: R) => Html;
  /** What the list holds, plural: "No <noun> match." */
  noun: string;
  result: { page: number; limit: number; total: number };
}

export const listPage = <R>(req: ConsoleRequest, page: ListPage<R>) =>
  show(
    req,
    page.section,
    page.title,
    html`<h1>${page.heading ?? page.title}</h1>
${page.before}
<form method="get" class="filters" role="search" aria-label="Filter ${page.noun}">
${page.filters}
<button type="submit">Filter</button>
</form>
${
  page.rows.length === 0
    ? html`<p>No ${page.noun} match.</p>`
    : html`<div class="scroll"><table><thead><tr>${page.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
<tbody>${page.rows.map(page.row)}</tbody></table></div>`
}
${pager(`/console/${page.section}`, req.query, page.result.page, page.result.limit, page.result.total)}`,
  );

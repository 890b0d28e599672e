import { listArticles } from '../articles/articles.js';
import { articleRoutes } from '../articles/routes.js';
import { ARTICLE_STATUSES } from '../articles/values.js';
import { listCustomers } from '../customers/list.js';
import { customerRoutes } from '../customers/routes.js';
import { show, signedIn } from './guard.js';
import { filtersFrom, pager, selectField, textField, when } from './forms.js';
import { html } from './html.js';

/** Read-only lists for agents and admins; editing stays in the API for now. */
export const customersList = signedIn('any', async (req) => {
  const f = filtersFrom(customerRoutes.listCustomers.query, req.query);
  const result = await listCustomers(req.ctx, f);
  return show(
    req,
    'customers',
    'Customers',
    html`<h1>Customers</h1>
<form method="get" class="filters" role="search" aria-label="Filter customers">${textField('search', 'Search', f.search, 'search')}<button type="submit">Filter</button></form>
${
  result.customers.length === 0
    ? html`<p>No customers match.</p>`
    : html`<div class="scroll"><table><thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Tickets</th><th scope="col">Created</th></tr></thead>
<tbody>${result.customers.map(
        (c) =>
          html`<tr><td><a href="/console/tickets?search=${encodeURIComponent(c.email)}">${c.email}</a></td><td>${c.name ?? '—'}</td><td>${c.ticketCount}</td><td>${when(c.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
}
${pager('/console/customers', req.query, result.page, result.limit, result.total)}`,
  );
});

export const articlesList = signedIn('any', async (req) => {
  const f = filtersFrom(articleRoutes.listArticles.query, req.query);
  const result = await listArticles(req.ctx, f);
  return show(
    req,
    'articles',
    'Articles',
    html`<h1>Knowledge base articles</h1>
<form method="get" class="filters" role="search" aria-label="Filter articles">${selectField('status', 'Status', ARTICLE_STATUSES, f.status)}${textField('search', 'Search', f.search, 'search')}<button type="submit">Filter</button></form>
${
  result.articles.length === 0
    ? html`<p>No articles match.</p>`
    : html`<div class="scroll"><table><thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Helpful</th><th scope="col">Updated</th></tr></thead>
<tbody>${result.articles.map(
        (a) =>
          html`<tr><td>${a.title}<br><span class="muted">${a.slug}</span></td><td><span class="badge">${a.status}</span></td><td>${a.helpfulYes} yes / ${a.helpfulNo} no</td><td>${when(a.updatedAt)}</td></tr>`,
      )}</tbody></table></div>`
}
${pager('/console/articles', req.query, result.page, result.limit, result.total)}`,
  );
});

import { listArticles } from '../../areas/articles/articles.js';
import { articleRoutes } from '../../areas/articles/routes.js';
import { ARTICLE_STATUSES } from '../../areas/articles/values.js';
import { customerRoutes } from '../../areas/customer-profile/routes.js';
import { listCustomers } from '../../areas/customers/list.js';
import { filtersFrom, selectField, textField, when } from './forms.js';
import { signedIn } from './guard.js';
import { html } from './html.js';
import { listPage } from './list-page.js';

/** Read-only lists for agents and admins; editing stays in the API for now. */
export const customersList = signedIn('any', async (req) => {
  const f = filtersFrom(customerRoutes.listCustomers.query, req.query);
  const result = await listCustomers(req.ctx, f);
  return listPage(req, {
    section: 'customers',
    title: 'Customers',
    filters: [textField('search', 'Search', f.search, 'search')],
    columns: ['Email', 'Name', 'Tickets', 'Created'],
    rows: result.customers,
    row: (c) =>
      html`<tr><td><a href="/console/tickets?search=${encodeURIComponent(c.email)}">${c.email}</a></td><td>${c.name ?? '—'}</td><td>${c.ticketCount}</td><td>${when(c.createdAt)}</td></tr>`,
    noun: 'customers',
    result,
  });
});

export const articlesList = signedIn('any', async (req) => {
  const f = filtersFrom(articleRoutes.listArticles.query, req.query);
  const result = await listArticles(req.ctx, f);
  return listPage(req, {
    section: 'articles',
    title: 'Articles',
    heading: 'Knowledge base articles',
    filters: [
      selectField('status', 'Status', ARTICLE_STATUSES, f.status),
      textField('search', 'Search', f.search, 'search'),
    ],
    columns: ['Title', 'Status', 'Helpful', 'Updated'],
    rows: result.articles,
    row: (a) =>
      html`<tr><td>${a.title}<br><span class="muted">${a.slug}</span></td><td><span class="badge">${a.status}</span></td><td>${a.helpfulYes} yes / ${a.helpfulNo} no</td><td>${when(a.updatedAt)}</td></tr>`,
    noun: 'articles',
    result,
  });
});

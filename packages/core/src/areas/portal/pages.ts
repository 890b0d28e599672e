import type { FieldDef } from '../ticket-fields/definitions.js';
import type { PublishedArticle, ShelfCategory } from './content.js';
import { esc, layout } from './layout.js';
import { portalPath, portalUrl } from './links.js';
import type { Site } from './site.js';
import { HONEYPOT_FIELD, REQUEST_FILES } from './values.js';

const articleHref = (site: Site, slug: string) => portalPath(site.handle, `/articles/${encodeURIComponent(slug)}`);
const categoryHref = (site: Site, slug: string) => portalPath(site.handle, `/categories/${encodeURIComponent(slug)}`);
const day = (iso: string) => iso.slice(0, 10);

const articleLinks = (site: Site, articles: readonly PublishedArticle[]) =>
  `<ul class="links">${articles.map((a) => `<li><a href="${articleHref(site, a.slug)}">${esc(a.title)}</a></li>`).join('')}</ul>`;

const crumbs = (site: Site, trail: { label: string; href?: string }[]) =>
  `<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="${portalPath(site.handle)}">Help Center</a></li>${trail
    .map(
      (t) =>
        `<li>${t.href ? `<a href="${t.href}">${esc(t.label)}</a>` : `<span aria-current="page">${esc(t.label)}</span>`}</li>`,
    )
    .join('')}</ol></nav>`;

export function homePage(site: Site, categories: readonly ShelfCategory[], popular: readonly PublishedArticle[]) {
  const shown = categories.filter((c) => c.published > 0);
  return layout(
    site,
    { title: site.name, canonical: '', description: `Answers and help from ${site.name}.` },
    `<h1>How can we help?</h1>
${
  shown.length
    ? `<h2>Categories</h2>
<ul class="cards">${shown
        .map(
          (c) =>
            `<li><a href="${categoryHref(site, c.slug)}">${esc(c.name)}</a><p class="muted">${c.description ? `${esc(c.description)} · ` : ''}${c.published} article${c.published === 1 ? '' : 's'}</p></li>`,
        )
        .join('')}</ul>`
    : ''
}
${popular.length ? `<h2>Popular articles</h2>${articleLinks(site, popular)}` : '<p>No articles yet.</p>'}
<h2>Still need help?</h2>
<p><a class="button" href="${portalPath(site.handle, '/requests/new')}">Open a request</a></p>`,
  );
}

export interface SearchHit {
  slug: string;
  highlight: { title: string; excerpt: string | null };
}

export function searchPage(site: Site, q: string, hits: readonly SearchHit[], page: number, more: boolean) {
  const base = `${portalPath(site.handle, '/search')}?q=${encodeURIComponent(q)}`;
  const pager =
    page > 1 || more
      ? `<nav class="pager" aria-label="Result pages">${page > 1 ? `<a href="${base}&amp;page=${page - 1}" rel="prev">Previous</a>` : '<span></span>'}${more ? `<a href="${base}&amp;page=${page + 1}" rel="next">Next</a>` : ''}</nav>`
      : '';
  const body = hits.length
    ? `<p class="muted" role="status">Results for “${esc(q)}”${page > 1 ? `, page ${page}` : ''}</p>
${hits
  .map(
    (h) =>
      // The highlights are escaped HTML with <em> around the matched words (articles/query.ts).
      `<div class="result"><h2><a href="${articleHref(site, h.slug)}">${h.highlight.title}</a></h2>${h.highlight.excerpt ? `<p>${h.highlight.excerpt}</p>` : ''}</div>`,
  )
  .join('\n')}
${pager}`
    : `<p role="status">No articles match “${esc(q)}”.</p>
<p>We are happy to help in person: <a class="button" href="${portalPath(site.handle, '/requests/new')}?subject=${encodeURIComponent(q)}">Open a request</a></p>`;
  return layout(
    site,
    { title: q ? `Search: ${q}` : 'Search', noindex: true, query: q },
    `<h1>Search results</h1>\n${body}`,
  );
}

export function categoryPage(site: Site, category: ShelfCategory, articles: readonly PublishedArticle[]) {
  return layout(
    site,
    {
      title: category.name,
      canonical: `/categories/${category.slug}`,
      description: category.description ?? `${category.name}: articles from the ${site.name} Help Center.`,
      structured: {
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        name: category.name,
        mainEntity: articles.map((a) => ({
          '@type': 'Question',
          name: a.title,
          acceptedAnswer: {
            '@type': 'Answer',
            text: a.excerpt ?? a.title,
            url: portalUrl(site.handle, `/articles/${a.slug}`),
          },
        })),
      },
    },
    `${crumbs(site, [{ label: category.name }])}
<h1>${esc(category.name)}</h1>
${category.description ? `<p class="muted">${esc(category.description)}</p>` : ''}
${articles.length ? articleLinks(site, articles) : '<p>No articles in this category yet.</p>'}`,
  );
}

export interface ArticleView {
  article: PublishedArticle;
  /** Sanitized HTML (articles/text.ts: raw HTML shown as text, only http(s), mailto and relative links). */
  bodyHtml: string;
  category: ShelfCategory | undefined;
  related: readonly PublishedArticle[];
  voted: boolean;
}

export function articlePage(site: Site, view: ArticleView) {
  const { article, category } = view;
  const vote = view.voted
    ? '<p class="vote" role="status">Thank you for your feedback.</p>'
    : `<form class="vote" method="post" action="${articleHref(site, article.slug)}/votes">
<fieldset><legend>Was this article helpful?</legend>
<button type="submit" name="helpful" value="yes">Yes</button>
<button type="submit" name="helpful" value="no" class="plain">No</button></fieldset>
</form>`;
  return layout(
    site,
    {
      title: article.title,
      canonical: `/articles/${article.slug}`,
      description: article.excerpt || `${article.title}: ${site.name} Help Center.`,
      structured: {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: article.title,
        description: article.excerpt || undefined,
        datePublished: article.publishedAt,
        dateModified: article.updatedAt,
        url: portalUrl(site.handle, `/articles/${article.slug}`),
        publisher: { '@type': 'Organization', name: site.name },
      },
    },
    `${crumbs(site, [...(category ? [{ label: category.name, href: categoryHref(site, category.slug) }] : []), { label: article.title }])}
<article>
<h1>${esc(article.title)}</h1>
<p class="muted">Updated <time datetime="${esc(article.updatedAt)}">${day(article.updatedAt)}</time>${category ? ` · <a href="${categoryHref(site, category.slug)}">${esc(category.name)}</a>` : ''}</p>
${view.bodyHtml}
</article>
${vote}
${view.related.length ? `<h2>Related articles</h2>${articleLinks(site, view.related)}` : ''}`,
  );
}

/** The first step of a request: what it is about, so matching articles can be offered before the form. */
export function requestStartPage(site: Site) {
  return layout(
    site,
    { title: 'Open a request', noindex: true },
    `<h1>Open a request</h1>
<form method="get" action="${portalPath(site.handle, '/requests/new')}">
<div class="field"><label for="subject">What do you need help with?</label>
<input id="subject" name="subject" maxlength="200" required autocomplete="off"></div>
<button type="submit">Continue</button>
</form>`,
  );
}

export interface RequestValues {
  email?: string;
  name?: string;
  subject?: string;
  message?: string;
  /** The project's ticket fields as typed, by key (a multi-select's checked options). */
  custom?: Record<string, string | string[]>;
}

/** The form controls of the project's ticket fields, named `cf.<key>` (`cf.<key>[]` for a multi-select's boxes). */
function customControls(
  fields: readonly FieldDef[],
  values: RequestValues['custom'] = {},
  problems: Record<string, string>,
) {
  return fields
    .map((f) => {
      const id = `cf-${f.key}`;
      const name = `cf.${f.key}`;
      const problem = problems[name];
      const described = problem ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
      const error = problem ? `<p class="error" id="${id}-error">${esc(problem)}</p>` : '';
      const label = `${esc(f.label)}${f.required ? '' : ' (optional)'}`;
      const required = f.required ? ' required' : '';
      const given = values[f.key];
      const one = typeof given === 'string' ? given : '';
      if (f.type === 'multi-select') {
        const checked = new Set(Array.isArray(given) ? given : []);
        return `<fieldset class="field"${described}><legend>${label}</legend>${error}${(f.options ?? [])
          .map(
            (o, i) =>
              `<label for="${id}-${i}"><input type="checkbox" id="${id}-${i}" name="${name}[]" value="${esc(o)}"${checked.has(o) ? ' checked' : ''}> ${esc(o)}</label> `,
          )
          .join('')}</fieldset>`;
      }
      if (f.type === 'boolean')
        return `<div class="field">${error}<label for="${id}"><input type="checkbox" id="${id}" name="${name}" value="true"${one === 'true' ? ' checked' : ''}${described}> ${esc(f.label)}</label></div>`;
      const control =
        f.type === 'select'
          ? `<select id="${id}" name="${name}"${required}${described}><option value="">Choose…</option>${(
              f.options ?? []
            )
              .map((o) => `<option${o === one ? ' selected' : ''}>${esc(o)}</option>`)
              .join('')}</select>`
          : `<input id="${id}" name="${name}" type="${INPUT_TYPES[f.type] ?? 'text'}"${f.type === 'number' ? ' step="any"' : ''} value="${esc(one)}"${required}${described}>`;
      return `<div class="field"><label for="${id}">${label}</label>${error}${control}</div>`;
    })
    .join('\n');
}

const INPUT_TYPES: Record<string, string> = {
  number: 'number',
  date: 'date',
  datetime: 'datetime-local',
  url: 'url',
  email: 'email',
};

/** The form, with the articles that match its subject, and the problems of a refused attempt by field. */
export function requestFormPage(
  site: Site,
  fields: readonly FieldDef[],
  values: RequestValues,
  suggestions: readonly SearchHit[],
  problems: Record<string, string> = {},
  notice?: string,
) {
  const field = (name: string, label: string, input: string) => {
    const problem = problems[name];
    return `<div class="field"><label for="${name}">${label}</label>${problem ? `<p class="error" id="${name}-error">${esc(problem)}</p>` : ''}${input.replace('>', `${problem ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>`)}</div>`;
  };
  const value = (name: Exclude<keyof RequestValues, 'custom'>) => esc(values[name] ?? '');
  return layout(
    site,
    { title: 'Open a request', noindex: true },
    `<h1>Open a request</h1>
${notice ? `<p class="notice error" role="alert">${esc(notice)}</p>` : ''}
${
  suggestions.length
    ? `<section aria-labelledby="suggested"><h2 id="suggested">Do any of these answer your question?</h2>
<ul class="links">${suggestions.map((s) => `<li><a href="${articleHref(site, s.slug)}">${s.highlight.title}</a>${s.highlight.excerpt ? `<br><span class="muted">${s.highlight.excerpt}</span>` : ''}</li>`).join('')}</ul></section>`
    : ''
}
<form method="post" action="${portalPath(site.handle, '/requests')}" enctype="multipart/form-data">
${field('email', 'Your email address', `<input id="email" name="email" type="email" maxlength="254" required autocomplete="email" value="${value('email')}">`)}
${field('name', 'Your name (optional)', `<input id="name" name="name" maxlength="200" autocomplete="name" value="${value('name')}">`)}
${field('subject', 'Subject', `<input id="subject" name="subject" maxlength="200" required value="${value('subject')}">`)}
${field('message', 'How can we help?', `<textarea id="message" name="message" maxlength="10000" required>${value('message')}</textarea>`)}
${customControls(fields, values.custom, problems)}
${field('file', `Files (optional, up to ${REQUEST_FILES})`, '<input id="file" name="file" type="file" multiple>')}
<div class="hp" aria-hidden="true"><label for="${HONEYPOT_FIELD}">Leave this empty</label><input id="${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></div>
<button type="submit">Send request</button>
</form>`,
  );
}

/**
 * The thanks: the number, and where the link to follow the request is. The link goes only to the
 * address, by mail: the form takes any address, and the page would hand its ticket to whoever typed it.
 */
export function requestDonePage(site: Site, number: number | undefined) {
  return layout(
    site,
    { title: 'Request received', noindex: true },
    `<h1>Thank you, we received your request</h1>
<p role="status">${number ? `Your request number is #${number}. ` : ''}We have sent a confirmation with a link to follow your request to your email address, and we will answer there.</p>`,
  );
}

/** A refusal a visitor can read: over quota, over a rate limit, too many files. */
export const problemPage = (site: Site, title: string, message: string) =>
  layout(site, { title, noindex: true }, `<h1>${esc(title)}</h1><p>${esc(message)}</p>`);

const xml = (s: string) => esc(s).replace(/'/g, '&apos;');

export function sitemapXml(site: Site, categories: readonly ShelfCategory[], articles: readonly PublishedArticle[]) {
  const url = (path: string, lastmod?: string) =>
    `<url><loc>${xml(portalUrl(site.handle, path))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${[
  url(''),
  ...categories.filter((c) => c.published > 0).map((c) => url(`/categories/${encodeURIComponent(c.slug)}`)),
  ...articles.map((a) => url(`/articles/${encodeURIComponent(a.slug)}`, day(a.updatedAt))),
].join('\n')}
</urlset>`;
}

export const robotsTxt = (site: Site) => `User-agent: *
Allow: ${portalPath(site.handle)}/
Disallow: ${portalPath(site.handle, '/search')}
Disallow: ${portalPath(site.handle, '/requests')}
Sitemap: ${portalUrl(site.handle, '/sitemap.xml')}
`;

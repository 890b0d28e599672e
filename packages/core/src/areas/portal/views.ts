import type { RawResult } from '../../kernel/api/route.js';
import { searchArticles } from '../articles/search.js';
import { usedFields } from '../ticket-fields/definitions.js';
import { byHelpfulness, categoryOf, formFields, publishedArticle, shelf } from './content.js';
import { portalPath } from './links.js';
import {
  articlePage,
  categoryPage,
  homePage,
  requestFormPage,
  requestStartPage,
  robotsTxt,
  type SearchHit,
  searchPage,
  sitemapXml,
} from './pages.js';
import { cachedPage, missing, movedPermanently, privatePage } from './respond.js';
import { resolveSite, type Site } from './site.js';
import { HOME_ARTICLES, RELATED_ARTICLES, SEARCH_PAGE_SIZE, SUGGESTIONS } from './values.js';

type Headers = Record<string, string | undefined>;

/** A page request: the handle, the rest of the path and query (kept by a redirect), the request's headers. */
export interface PageRequest {
  handle: string;
  rest: string;
  query: string;
  method: string;
  headers: Headers;
}

/**
 * Runs `render` on the handle's site; an old handle answers 301 to the same page under its new one
 * (308 to a form post: a 301 turns it into a GET, and the visitor's request or vote would be lost).
 */
export async function onSite(req: PageRequest, render: (site: Site) => Promise<RawResult>): Promise<RawResult> {
  const resolved = await resolveSite(req.handle);
  if (!resolved) return missing();
  if ('movedTo' in resolved)
    return movedPermanently(
      `${portalPath(resolved.movedTo, req.rest)}${req.query ? `?${req.query}` : ''}`,
      req.method === 'GET' || req.method === 'HEAD' ? 301 : 308,
    );
  return render(resolved.site);
}

export const showHome = (req: PageRequest) =>
  onSite(req, async (site) => {
    const { categories, articles } = await shelf(site.ctx);
    return cachedPage(
      homePage(site, categories, [...articles].sort(byHelpfulness).slice(0, HOME_ARTICLES)),
      req.headers,
    );
  });

/** The same search as GET /articles/search (keyword mode), on the live environment's published articles. */
export async function searchSite(site: Site, q: string, page: number, size: number) {
  if (!q.trim()) return { hits: [] as SearchHit[], more: false };
  // One result past the page says whether there is a next one.
  const { results } = await searchArticles(site.ctx, { q, mode: 'keyword', page: 1, limit: page * size + 1 });
  return { hits: results.slice((page - 1) * size, page * size), more: results.length > page * size };
}

/** The words searched: control characters are spaces, at most 500 characters (the API's bound). */
const searchText = (q: string) => q.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 500);
/** A page number as typed: anything else is the first page; past the last page search allows, the last. */
const pageNumber = (raw: string) => Math.min(MAX_SEARCH_PAGE, Math.max(1, /^\d{1,6}$/.test(raw) ? Number(raw) : 1));
const MAX_SEARCH_PAGE = 50;

export const showSearch = (req: PageRequest, rawQ: string, rawPage: string) =>
  onSite(req, async (site) => {
    const [q, page] = [searchText(rawQ), pageNumber(rawPage)];
    const { hits, more } = await searchSite(site, q, page, SEARCH_PAGE_SIZE);
    return cachedPage(searchPage(site, q, hits, page, more && page < MAX_SEARCH_PAGE), req.headers);
  });

export const showCategory = (req: PageRequest, slug: string) =>
  onSite(req, async (site) => {
    const { categories, articles } = await shelf(site.ctx);
    const category = categories.find((c) => c.slug === slug);
    if (!category) return missing();
    const inCategory = articles
      .filter((a) => a.categoryId === category.id)
      .sort((a, b) => a.title.localeCompare(b.title));
    return cachedPage(categoryPage(site, category, inCategory), req.headers);
  });

export const showArticle = (req: PageRequest, slug: string, voted: boolean) =>
  onSite(req, async (site) => {
    const [found, { categories, articles }, { markdownToHtml }] = await Promise.all([
      publishedArticle(site.ctx, slug),
      shelf(site.ctx),
      import('../articles/text.js'),
    ]);
    if (!found) return missing();
    const { article } = found;
    const related = articles
      .filter((a) => a.categoryId === article.categoryId && a.articleId !== article.articleId)
      .sort(byHelpfulness)
      .slice(0, RELATED_ARTICLES);
    const html = articlePage(site, {
      article,
      bodyHtml: markdownToHtml(found.body, { underTitle: true }),
      category: categoryOf(categories, article.categoryId),
      related,
      voted,
    });
    // The thanks after a vote is this visitor's page; the article itself is anyone's.
    return voted ? privatePage(200, html) : cachedPage(html, req.headers);
  });

/** The request form: first what it is about, then the matching articles above the whole form. */
export const showRequestForm = (req: PageRequest, subject: string | undefined) =>
  onSite(req, async (site) => {
    if (!subject?.trim()) return cachedPage(requestStartPage(site), req.headers);
    subject = searchText(subject).slice(0, 200);
    const [{ hits }, fields] = await Promise.all([searchSite(site, subject, 1, SUGGESTIONS), usedFields(site.ctx)]);
    return cachedPage(requestFormPage(site, formFields(fields), { subject }, hits), req.headers);
  });

export const showSitemap = (req: PageRequest) =>
  onSite(req, async (site) => {
    const { categories, articles } = await shelf(site.ctx);
    return cachedPage(sitemapXml(site, categories, articles), req.headers, 'application/xml; charset=utf-8');
  });

export const showRobots = (req: PageRequest) =>
  onSite(req, async (site) => cachedPage(robotsTxt(site), req.headers, 'text/plain; charset=utf-8'));

import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../kernel/api/route.js';
import { SLUG_MAX } from '../articles/values.js';
import { portalVote } from './schemas.js';
import { REQUEST_FILES, REQUESTS_PER_ADDRESS_PER_HOUR, REQUESTS_PER_IP_PER_MINUTE } from './values.js';

/**
 * The hosted help center of a project: server-rendered pages under `/help/{handle}`, no key, live
 * published articles only. An unknown or turned-off handle, a draft and an unknown slug are all the
 * same 404 page; a renamed handle answers 301 to its new address for 90 days.
 */
const page = {
  root: true as const,
  group: 'portal' as const,
  tenancy: 'public' as const,
  tags: ['Help center'],
  produces: 'text/html' as const,
  // The handle and slugs are checked by the page (an unknown one is the portal's 404 page).
  params: { handle: v.pipe(v.string(), v.maxLength(100)) },
};
const slugParams = { ...page.params, slug: v.pipe(v.string(), v.maxLength(SLUG_MAX)) };
const text = (max: number) => v.optional(v.pipe(v.string(), v.maxLength(max)));

export const portalRoutes = {
  showPortalHome: defineRoute({
    ...page,
    id: 'showPortalHome',
    method: 'GET',
    path: '/help/{handle}',
    summary: "A project's help center: search, categories with their article counts, popular articles, a request link",
  }),
  searchPortal: defineRoute({
    ...page,
    id: 'searchPortal',
    method: 'GET',
    path: '/help/{handle}/search',
    summary: 'Search results (the same keyword search as GET /articles/search), ten a page',
    // Lenient, as pages are: a page number out of range is the first or the last, a long query is cut.
    query: {
      q: v.optional(v.pipe(v.string(), v.maxLength(4_000)), ''),
      page: v.optional(v.pipe(v.string(), v.maxLength(20)), '1'),
    },
  }),
  showPortalCategory: defineRoute({
    ...page,
    id: 'showPortalCategory',
    method: 'GET',
    path: '/help/{handle}/categories/{slug}',
    summary: "A category's published articles",
    params: slugParams,
  }),
  showPortalArticle: defineRoute({
    ...page,
    id: 'showPortalArticle',
    method: 'GET',
    path: '/help/{handle}/articles/{slug}',
    summary: 'A published article (sanitized HTML), its category, related articles and a "Was this helpful?" form',
    params: slugParams,
    query: { voted: v.optional(v.pipe(v.string(), v.maxLength(20))) },
  }),
  votePortalArticle: defineRoute({
    ...page,
    id: 'votePortalArticle',
    method: 'POST',
    path: '/help/{handle}/articles/{slug}/votes',
    summary: 'Record "Was this helpful?" (one vote per visitor per article per day); 303 back to the article',
    params: slugParams,
    bodyType: 'form-or-json',
    body: portalVote,
  }),
  showPortalRequestForm: defineRoute({
    ...page,
    id: 'showPortalRequestForm',
    method: 'GET',
    path: '/help/{handle}/requests/new',
    summary: 'The request form; with `subject`, the articles that match it are offered first',
    query: { subject: text(200) },
  }),
  submitPortalRequest: defineRoute({
    ...page,
    id: 'submitPortalRequest',
    method: 'POST',
    path: '/help/{handle}/requests',
    summary: 'Open a request: a ticket (`source: portal`) and a confirmation mail with its page link',
    description: `Fields: email, name (optional), subject, message, the project's ticket fields as \`cf.<key>\` (\`cf.<key>[]\` for a multi-select), up to ${REQUEST_FILES} files (\`file\`) within the attachment limits. Answers a page: the confirmation with the ticket page link, the form again with the problems by field (422), 429 after ${REQUESTS_PER_IP_PER_MINUTE} requests a minute from one IP or ${REQUESTS_PER_ADDRESS_PER_HOUR} an hour naming one address, or a polite page when the project is over its plan.`,
    bodyType: 'any-form-or-json',
    // Loose: the project's ticket fields arrive as `cf.<key>` controls (`cf.<key>[]` for a multi-select).
    body: v.looseObject({
      email: text(1_000),
      name: text(1_000),
      subject: text(1_000),
      message: text(20_000),
      website: text(1_000),
      file: v.optional(v.unknown()),
    }),
  }),
  portalSitemap: defineRoute({
    ...page,
    id: 'portalSitemap',
    method: 'GET',
    path: '/help/{handle}/sitemap.xml',
    summary: "The help center's sitemap: home, categories and published articles",
    produces: 'application/xml',
  }),
  portalRobots: defineRoute({
    ...page,
    id: 'portalRobots',
    method: 'GET',
    path: '/help/{handle}/robots.txt',
    summary: "The help center's robots.txt, naming its sitemap",
    produces: 'text/plain',
  }),
} satisfies Record<string, RouteDef>;

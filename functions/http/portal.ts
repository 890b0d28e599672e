import { portalRoutes } from '@helpdesk/core/areas/portal/routes';
import { REQUEST_FILES } from '@helpdesk/core/areas/portal/values';
import { MAX_ATTACHMENT_BYTES } from '@helpdesk/core/areas/tickets/values';
import { routeModules } from '@helpdesk/core/kernel/api/route';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';

// Each page's code loads on its first call (docs/architecture.md, One route table).
const use = routeModules({
  views: () => import('@helpdesk/core/areas/portal/views'),
  votes: () => import('@helpdesk/core/areas/portal/votes'),
  requests: () => import('@helpdesk/core/areas/portal/requests'),
});

/** The page's handle, the path after it (kept by a 301 of a renamed handle), its query and headers. */
const pageOf = ({
  params,
  event,
  headers,
}: {
  params: { handle: string };
  event: { rawPath: string; rawQueryString: string; requestContext: { http: { method: string } } };
  headers: Record<string, string | undefined>;
}) => ({
  handle: params.handle,
  rest: event.rawPath.slice(`/help/${params.handle}`.length),
  query: event.rawQueryString,
  method: event.requestContext.http.method,
  headers,
});

/** The hosted help centers: pages under /help/{handle}, no key. */
export const handler = createGroupHandler(
  portalRoutes,
  {
    showPortalHome: async (req) => (await use.views()).showHome(pageOf(req)),
    searchPortal: async (req) => (await use.views()).showSearch(pageOf(req), req.query.q, req.query.page),
    showPortalCategory: async (req) => (await use.views()).showCategory(pageOf(req), req.params.slug),
    showPortalArticle: async (req) =>
      (await use.views()).showArticle(pageOf(req), req.params.slug, req.query.voted === '1'),
    votePortalArticle: async (req) =>
      (await use.votes()).voteOnArticle(pageOf(req), req.params.slug, req.body.helpful, req.sourceIp),
    showPortalRequestForm: async (req) => (await use.views()).showRequestForm(pageOf(req), req.query.subject),
    submitPortalRequest: async (req) => (await use.requests()).submitRequest(pageOf(req), req.body, req.sourceIp),
    portalSitemap: async (req) => (await use.views()).showSitemap(pageOf(req)),
    portalRobots: async (req) => (await use.views()).showRobots(pageOf(req)),
  },
  // One file more than a request may hold, so too many files is a 422 rather than a silent drop.
  { multipart: { fileSize: MAX_ATTACHMENT_BYTES, files: REQUEST_FILES + 1 } },
);

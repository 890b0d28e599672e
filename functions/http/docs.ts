import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { rawResponse } from '@helpdesk/core/http/route';
import { redocScript, referencePageHtml } from '@helpdesk/core/openapi/reference-page';
import { docsRoutes, referencePageRoutes } from '@helpdesk/core/openapi/routes';
import { servedOpenApiDocument } from '@helpdesk/core/openapi/served';

/** The machine-readable specification and its reference page, served without a key. */
export const handler = createGroupHandler(
  { ...docsRoutes, ...referencePageRoutes },
  {
    getOpenApi: async () => servedOpenApiDocument(),
    getReferencePage: async () => rawResponse(200, referencePageHtml(), { 'content-type': 'text/html; charset=utf-8' }),
    getReferenceScript: async () =>
      rawResponse(200, redocScript(), { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' }),
  },
);

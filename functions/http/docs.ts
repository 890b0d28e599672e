import { rawResponse } from '@helpdesk/core/kernel/api/route';
import { REFERENCE_PAGE_HEADERS, redocScript, referencePageHtml } from '@helpdesk/core/top/openapi/reference-page';
import { servedOpenApiDocument } from '@helpdesk/core/top/openapi/served';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';
import { docsRoutes, referencePageRoutes } from '@helpdesk/core/top/routes/docs';

/** The machine-readable specification and its reference page, served without a key. */
export const handler = createGroupHandler(
  { ...docsRoutes, ...referencePageRoutes },
  {
    getOpenApi: async () => servedOpenApiDocument(),
    listWebhookEventTypes: async () => ({
      eventTypes: (await import('@helpdesk/core/top/openapi/webhooks')).webhookEventTypes(),
    }),
    getReferencePage: async () => rawResponse(200, referencePageHtml(), REFERENCE_PAGE_HEADERS),
    getReferenceScript: async () =>
      rawResponse(200, redocScript(), {
        'content-type': 'application/javascript; charset=utf-8',
        'cache-control': 'public, max-age=86400',
      }),
  },
);

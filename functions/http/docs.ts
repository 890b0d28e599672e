import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { allRoutes } from '@helpdesk/core/http/routes';
import { buildOpenApiDocument } from '@helpdesk/core/openapi/document';
import { docsRoutes } from '@helpdesk/core/openapi/routes';
import { openApiServers } from '@helpdesk/core/openapi/servers';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The machine-readable specification, served without a key. */
export const handler = createGroupHandler(docsRoutes, {
  getOpenApi: async () => (document ??= buildOpenApiDocument(allRoutes, openApiServers())),
});

import type { buildOpenApiDocument } from './document.js';

let document: Promise<ReturnType<typeof buildOpenApiDocument>> | undefined;

/**
 * The document `GET /openapi.json` serves, built on its first request: the generator
 * (@valibot/to-json-schema) and every route's schemas load then, not at the docs Lambda's init (the
 * reference page and its script need neither).
 */
export const servedOpenApiDocument = () =>
  (document ??= Promise.all([import('./document.js'), import('../routes/table.js'), import('./servers.js')]).then(
    ([{ buildOpenApiDocument: build }, { allRoutes }, { openApiServers }]) => build(allRoutes, openApiServers()),
  ));

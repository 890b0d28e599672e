import * as v from 'valibot';
import { defineRoute } from '../../kernel/api/route.js';

export const docsRoutes = {
  getOpenApi: defineRoute({
    id: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    group: 'docs',
    tags: ['Meta'],
    summary: 'The OpenAPI 3.1 document of this API',
    tenancy: 'public',
    response: v.record(v.string(), v.unknown()),
  }),
  listWebhookEventTypes: defineRoute({
    id: 'listWebhookEventTypes',
    method: 'GET',
    path: '/webhook-event-types',
    group: 'docs',
    tags: ['Webhooks'],
    summary: 'Every webhook event type with its description, the JSON Schema of its data and an example',
    tenancy: 'public',
    response: v.object({
      eventTypes: v.array(
        v.object({
          type: v.string(),
          description: v.string(),
          schema: v.record(v.string(), v.unknown()),
          example: v.record(v.string(), v.unknown()),
        }),
      ),
    }),
  }),
};

/** The API reference page, beside the API at the host root. */
export const referencePageRoutes = {
  getReferencePage: defineRoute({
    id: 'getReferencePage',
    method: 'GET',
    path: '/docs',
    root: true,
    group: 'docs',
    summary: 'API reference page (Redoc)',
    tenancy: 'public',
    produces: 'text/html',
  }),
  getReferenceScript: defineRoute({
    id: 'getReferenceScript',
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    root: true,
    group: 'docs',
    summary: 'The Redoc bundle the reference page loads (served from the installed package, no CDN)',
    tenancy: 'public',
    produces: 'application/javascript',
  }),
};

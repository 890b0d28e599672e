import * as v from 'valibot';
import { defineRoute } from '../http/route.js';

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
};

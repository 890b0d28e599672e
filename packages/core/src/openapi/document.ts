import * as v from 'valibot';
import { errorBody } from '../http/schemas.js';
import { API_PREFIX, type RouteDef } from '../http/route.js';
import { jsonSchemaOf } from './schema.js';

export const API_VERSION = '1.2.0';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'project.required: the key reaches several projects and none is named; details.projects lists the choices',
  401: 'auth.unauthorized: API key missing or invalid',
  403: 'auth.forbidden (scope or IP), project.forbidden, environment.forbidden, or a plan error (plan.*)',
  404: 'not_found: no such record in this project and environment',
  405: 'method_not_allowed',
  409: 'conflict: other requests kept changing the same record at the same moment; retry',
  413: 'API Gateway, before the API runs: the request\'s Lambda event would exceed 6 MiB (or its body 10 MB). Not the error shape: `{ "message": "Request Entity Too Large" }`',
  422: 'validation.failed (details.fields lists each bad field) or a domain rule',
  429: 'rate_limit.exceeded: over the per-key rate limit; see Retry-After',
  500: 'internal: unexpected error',
};

/** The statuses a route can answer besides 200, from what the pipeline does for it plus what it declares. */
export function errorStatuses(route: RouteDef): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  statuses.add(500);
  if (route.tenancy !== 'public') [401, 403, 429].forEach((s) => statuses.add(s));
  if (route.tenancy === 'project') statuses.add(400);
  if (route.params) statuses.add(404);
  if (route.query || route.body || route.tenancy !== 'public') statuses.add(422);
  // Writes retry concurrent changes to the same record a few times, then answer 409.
  if (route.method !== 'GET' && route.tenancy !== 'public') statuses.add(409);
  // Lambda's 6 MiB event limit (and API Gateway's 10 MB body limit), answered before any handler runs.
  if (route.body) statuses.add(413);
  return [...statuses].sort((a, b) => a - b);
}

const tenancyParameters = [
  { name: 'Service-Project', in: 'header', description: 'Project slug or id; needed when the key reaches several projects.', schema: { type: 'string' } },
  { name: 'project', in: 'query', description: 'Project slug or id (alternative to Service-Project).', schema: { type: 'string' } },
];
const environmentParameters = [
  { name: 'Service-Environment', in: 'header', description: 'live or sandbox; a live key may ask for sandbox.', schema: { type: 'string', enum: ['live', 'sandbox'] } },
  { name: 'environment', in: 'query', description: 'live or sandbox (alternative to Service-Environment).', schema: { type: 'string', enum: ['live', 'sandbox'] } },
];

const parametersOf = (route: RouteDef) => {
  const params: Record<string, unknown>[] = [];
  for (const [name, schema] of Object.entries(route.params ?? {})) {
    params.push({ name, in: 'path', required: true, schema: jsonSchemaOf(schema as v.GenericSchema) });
  }
  if (route.query) {
    const query = jsonSchemaOf(v.object(route.query)) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      params.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  for (const h of route.headers ?? []) params.push({ name: h.name, in: 'header', description: h.description, schema: { type: 'string' } });
  if (route.tenancy === 'project') params.push(...tenancyParameters);
  if (route.tenancy !== 'public') params.push(...environmentParameters);
  return params;
};

type ObjectSchema = { properties?: Record<string, { properties?: Record<string, unknown> }> };

/** In multipart bodies the parser's file objects ({ filename, content, ... }) are the uploaded file parts. */
const asFileParts = (schema: ObjectSchema) => {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.properties && 'filename' in property.properties && 'content' in property.properties) {
      schema.properties![name] = { type: 'string', format: 'binary' } as never;
    }
  }
  return schema;
};

const requestBodyOf = (route: RouteDef) => {
  if (!route.body) return undefined;
  const schema = route.bodyType === 'multipart' ? asFileParts(jsonSchemaOf(route.body)) : jsonSchemaOf(route.body);
  const content: Record<string, unknown> =
    route.bodyType === 'multipart'
      ? { 'multipart/form-data': { schema } }
      : route.bodyType === 'form-or-json'
        ? { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } }
        : { 'application/json': { schema } };
  return { required: true, content };
};

/** Pages people open in a browser (and the forms they post) also answer errors as HTML. */
const answersHtml = (route: RouteDef) => route.produces === 'text/html' || route.bodyType === 'form-or-json';
const htmlContent = { 'text/html': { schema: { type: 'string' } } };

const okResponse = (route: RouteDef) => {
  if (route.produces) return { description: 'OK', content: { [route.produces]: { schema: { type: 'string' } } } };
  const json = { 'application/json': { schema: route.response ? jsonSchemaOf(route.response) : {} } };
  return { description: 'OK', content: answersHtml(route) ? { ...json, ...htmlContent } : json };
};

/** What API Gateway answers itself for a request too large for Lambda; HTTP APIs cannot reshape it. */
const gatewayTooLarge = { type: 'object', properties: { message: { type: 'string', const: 'Request Entity Too Large' } }, required: ['message'] };

const errorResponse = (route: RouteDef, status: number) => {
  if (status === 413) return { description: ERROR_DESCRIPTIONS[413], content: { 'application/json': { schema: gatewayTooLarge } } };
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  return {
    description: ERROR_DESCRIPTIONS[status] ?? 'Error',
    content: answersHtml(route) && status < 500 ? { ...json, ...htmlContent } : json,
  };
};

/** The OpenAPI 3.1 document of the API, generated from the route table and its valibot schemas. */
export function buildOpenApiDocument(routes: RouteDef[], servers: { url: string; description: string }[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.root) continue; // pages outside the API base (the reference page) are not API operations
    const operation = {
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags ?? [route.group],
      security: route.tenancy === 'public' ? [] : [{ apiKey: route.scope ? [route.scope] : [] }],
      ...(route.scope ? { 'x-required-scope': route.scope } : {}),
      parameters: parametersOf(route),
      ...(route.body ? { requestBody: requestBodyOf(route) } : {}),
      responses: {
        200: okResponse(route),
        ...Object.fromEntries(errorStatuses(route).map((s) => [s, errorResponse(route, s)])),
      },
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Helpdesk Service REST API',
      version: API_VERSION,
      description:
        'Tickets, transactional email, knowledge base, logs, customers, feedback and webhooks. Authenticate with `Authorization: Bearer sk_live_…` or `sk_sandbox_…`. Every error is `{ error: { code, message, details? } }`.',
    },
    servers: servers.map((s) => ({ url: s.url.replace(/\/$/, '') + API_PREFIX, description: s.description })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: sk_live_… or sk_sandbox_…. Operations list the scope they need.' },
      },
      schemas: { Error: jsonSchemaOf(errorBody) },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

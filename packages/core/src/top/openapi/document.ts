import * as v from 'valibot';
import { problemsByStatus } from '../../kernel/api/problems.js';
import { API_PREFIX, answersHtml, type RouteDef } from '../../kernel/api/route.js';
import { errorBody } from '../../kernel/api/schemas.js';
import { PROBLEMS, type ProblemCode } from '../../kernel/errors/catalog.js';
import { jsonSchemaOf } from './schema.js';
import { openApiWebhooks } from './webhooks.js';

export const API_VERSION = '1.2.0';

const tenancyParameters = [
  {
    name: 'Service-Project',
    in: 'header',
    description: 'Project slug or id; needed when the key reaches several projects.',
    schema: { type: 'string' },
  },
  {
    name: 'project',
    in: 'query',
    description: 'Project slug or id (alternative to Service-Project).',
    schema: { type: 'string' },
  },
];
const environmentParameters = [
  {
    name: 'Service-Environment',
    in: 'header',
    description: 'live or sandbox; a live key may ask for sandbox.',
    schema: { type: 'string', enum: ['live', 'sandbox'] },
  },
  {
    name: 'environment',
    in: 'query',
    description: 'live or sandbox (alternative to Service-Environment).',
    schema: { type: 'string', enum: ['live', 'sandbox'] },
  },
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
  for (const h of route.headers ?? [])
    params.push({ name: h.name, in: 'header', description: h.description, schema: { type: 'string' } });
  if (route.tenancy === 'project') params.push(...tenancyParameters);
  if (route.tenancy !== 'public') params.push(...environmentParameters);
  return params;
};

type ObjectSchema = { properties?: Record<string, JsonSchema>; required?: string[] };
type JsonSchema = { type?: string; properties?: Record<string, unknown>; anyOf?: JsonSchema[]; items?: JsonSchema };

/** The parser's file object ({ filename, content, ... }): in the document, an uploaded file part. */
const isFilePart = (schema: JsonSchema | undefined): boolean =>
  !!schema?.properties && 'filename' in schema.properties && 'content' in schema.properties;
const holdsFiles = (schema: JsonSchema): boolean =>
  isFilePart(schema) || isFilePart(schema.items) || !!schema.anyOf?.some((s) => holdsFiles(s));
const binary = { type: 'string', format: 'binary' };

/** The body as a multipart form: file fields become (repeatable) binary parts. */
const asMultipart = (schema: ObjectSchema): ObjectSchema => ({
  ...schema,
  properties: Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      isFilePart(property)
        ? binary
        : holdsFiles(property)
          ? { type: 'array', items: binary, description: 'One part per file (the part repeated)' }
          : property,
    ]),
  ),
});

/** The fields a body is sent with: JSON (files go inline in JSON), an urlencoded form (text), a multipart one. */
const fieldsFor = (schema: ObjectSchema, form: 'json' | 'urlencoded' | 'multipart'): ObjectSchema => {
  const kept = Object.entries(schema.properties ?? {}).filter(([, property]) =>
    form === 'json'
      ? !holdsFiles(property)
      : property.type === 'string' || (form === 'multipart' && holdsFiles(property)),
  );
  return {
    ...schema,
    properties: Object.fromEntries(kept),
    ...(schema.required ? { required: schema.required.filter((name) => kept.some(([k]) => k === name)) } : {}),
  };
};

const requestBodyOf = (route: RouteDef) => {
  if (!route.body) return undefined;
  const schema = jsonSchemaOf(route.body) as ObjectSchema;
  const content: Record<string, unknown> =
    route.bodyType === 'multipart'
      ? { 'multipart/form-data': { schema: asMultipart(schema) } }
      : route.bodyType === 'form-or-json'
        ? { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } }
        : route.bodyType === 'any-form-or-json'
          ? {
              'application/json': { schema: fieldsFor(schema, 'json') },
              'application/x-www-form-urlencoded': { schema: fieldsFor(schema, 'urlencoded') },
              'multipart/form-data': { schema: asMultipart(fieldsFor(schema, 'multipart')) },
            }
          : { 'application/json': { schema } };
  return { required: true, content };
};

/** Pages people open in a browser (and the forms they post) also answer errors as HTML. */
const htmlContent = { 'text/html': { schema: { type: 'string' } } };

const okResponse = (route: RouteDef) => {
  if (route.produces) return { description: 'OK', content: { [route.produces]: { schema: { type: 'string' } } } };
  const json = { 'application/json': { schema: route.response ? jsonSchemaOf(route.response) : {} } };
  return { description: 'OK', content: answersHtml(route) ? { ...json, ...htmlContent } : json };
};

/** What API Gateway answers itself for a request too large for Lambda; HTTP APIs cannot reshape it, so it is no catalog problem. */
const gatewayTooLarge = {
  description:
    'API Gateway, before the API runs: the request\'s Lambda event would exceed 6 MiB (or its body 10 MB). Not the error shape: `{ "message": "Request Entity Too Large" }`',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { message: { type: 'string', const: 'Request Entity Too Large' } },
        required: ['message'],
      },
    },
  },
};

/**
 * A request line and headers over the front door's limit, refused before any route runs, so on every
 * operation. Only the error shape is typed (a union with API Gateway's `{ message }` would make every
 * error of the typed client a union); the description says what API Gateway answers instead.
 */
const headersTooLarge = () => ({
  description:
    'Before the API runs: the request line and headers are too large. The local server (over 16 KB) answers `validation.failed`; deployed, API Gateway refuses them itself (over 10,240 bytes) with its own `{ "message": … }`.',
  content: { 'application/json': { schema: errorSchema(['validation.failed']) } },
});

/** The component holding one problem's `code` and `details` schema, which an error response's `error` is one of. */
const problemRef = (code: ProblemCode) => `#/components/schemas/Problem.${code}`;

const problemSchemas = () =>
  Object.fromEntries(
    (Object.keys(PROBLEMS) as ProblemCode[]).map((code) => {
      const details = PROBLEMS[code].details;
      const required = details && details.type !== 'optional' ? ['code', 'details'] : ['code'];
      const properties = { code: { const: code }, ...(details ? { details: jsonSchemaOf(details) } : {}) };
      return [`Problem.${code}`, { type: 'object', description: PROBLEMS[code].summary, properties, required }];
    }),
  );

/** An error status of an operation: the codes it can carry (an enum, and in the description), each with its details. */
const errorResponse = (route: RouteDef, status: number, codes: ProblemCode[]) => {
  const json = { 'application/json': { schema: errorSchema(codes) } };
  return {
    description: codes.map((code) => `- \`${code}\`: ${PROBLEMS[code].summary}`).join('\n'),
    content: answersHtml(route) && status < 500 ? { ...json, ...htmlContent } : json,
  };
};

/** The error shape with `error` one of these codes' problems. */
const errorSchema = (codes: ProblemCode[]) => ({
  allOf: [
    { $ref: '#/components/schemas/Error' },
    {
      type: 'object',
      properties: {
        error: {
          type: 'object',
          properties: { code: { type: 'string', enum: codes } },
          oneOf: codes.map((code) => ({ $ref: problemRef(code) })),
        },
      },
    },
  ],
});

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
      ...(route.fullAccess ? { 'x-full-access': true } : {}),
      parameters: parametersOf(route),
      ...(route.body ? { requestBody: requestBodyOf(route) } : {}),
      responses: {
        200: okResponse(route),
        ...Object.fromEntries(
          [...problemsByStatus(route)].map(([status, codes]) => [status, errorResponse(route, status, codes)]),
        ),
        ...(route.body ? { 413: gatewayTooLarge } : {}),
        431: headersTooLarge(),
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
    webhooks: openApiWebhooks(),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: sk_live_… or sk_sandbox_…. Operations list the scope they need.',
        },
      },
      schemas: { Error: jsonSchemaOf(errorBody), ...problemSchemas() },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

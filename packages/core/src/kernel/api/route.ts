import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as v from 'valibot';
import type { ProblemCode } from '../errors/catalog.js';
import type { AccountContext, Plan, Principal, TenantContext } from '../tenant.js';

export const API_PREFIX = '/api/v1';

/** The Lambda that serves a route: one per endpoint group. */
export const GROUPS = [
  'account',
  'tickets',
  'emails',
  'templates',
  'articles',
  'logs',
  'customers',
  'feedback',
  'webhooks',
  'public',
  'docs',
  'console',
  'portal',
] as const;
export type Group = (typeof GROUPS)[number];

export const SCOPES = [
  'tickets:read',
  'tickets:write',
  'emails:send',
  'emails:manage',
  'articles:read',
  'articles:write',
  'customers:read',
  'customers:write',
  'feedback:read',
  'feedback:write',
  'logs:read',
  'logs:write',
  'webhooks:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

type AnySchema = v.GenericSchema;
type ObjectEntries = v.ObjectEntries;

export interface RouteDef {
  /** operationId in the OpenAPI document; the key a group handler binds its implementation to. */
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Relative to API_PREFIX unless `root` is set. */
  path: string;
  root?: boolean;
  group: Group;
  summary: string;
  /** Longer OpenAPI description (Markdown), where the summary cannot say enough. */
  description?: string;
  tags?: string[];
  /**
   * `project`: an API key and a resolved project and environment; `account`: an API key, no project;
   * `public`: no key at all (the spec document, the emailed rating page).
   */
  tenancy: 'project' | 'account' | 'public';
  /** An account-wide write: only a live key that reaches every project, on live (403 `auth.account_key_required`). */
  accountWrite?: true;
  scope?: Scope;
  /**
   * Needs a key with full access (an empty scope list): a write no scope names, such as the project's
   * help center settings. A restricted key gets 403 `auth.forbidden`.
   */
  fullAccess?: true;
  /** A plan-gated feature: lower plans get 403 `plan.upgrade_required` before their input is even read. */
  plan?: { minimum: Plan; feature: string };
  /** Path parameters; a value failing its schema is a 404, like an unknown id. */
  params?: ObjectEntries;
  query?: ObjectEntries;
  /**
   * Families of query parameters named `<name>.<rest>` (`field.order_id`, `field.amount.gte`): each
   * family reaches the route as `query[name]`, `{ rest: value }`, checked by its schema (a record).
   * Documented in the route's description: OpenAPI has no parameter style for dotted names.
   */
  queryGroups?: Record<string, AnySchema>;
  body?: AnySchema;
  /**
   * What the body may be sent as: JSON (the default); `multipart` only; `form-or-json` also an HTML
   * form (urlencoded); `any-form-or-json` also an HTML form in either encoding (a page with a file input).
   */
  bodyType?: 'json' | 'multipart' | 'form-or-json' | 'any-form-or-json';
  /** Schema of the 200 body (absent for non-JSON answers). */
  response?: AnySchema;
  /**
   * The domain problems (errors/catalog.ts) the operation can answer, e.g. `['ticket.unknown_member',
   * 'plan.ticket_limit']`; the pipeline's own (auth, rate limit, tenancy, validation, not_found, plan
   * gate, conflict, internal) are added from the route's other properties (http/problems.ts).
   */
  problems?: readonly ProblemCode[];
  /** Extra request headers the route reads (documented in OpenAPI). */
  headers?: { name: string; description: string }[];
  /** Content type of a non-JSON 200 answer. */
  produces?: 'text/html' | 'application/javascript' | 'application/xml' | 'text/plain';
  /** A page people open in a browser that also answers JSON (`Accept: application/json`): both are documented. */
  page?: boolean;
  /**
   * The path holds a token that opens a customer's record (a link the service mailed): every answer, page or
   * JSON, error or not, is `no-store` and `no-referrer` (the address must not be cached or passed on) and
   * varies on Accept (pipeline/middleware/link-headers.ts).
   */
  linkToken?: true;
}

export const defineRoute = <const R extends RouteDef>(route: R) => route;

/** Whether a route answers browsers with HTML (its errors included): a page, or a form post. */
export const answersHtml = (route: RouteDef) =>
  route.produces === 'text/html' || route.page === true || route.bodyType === 'form-or-json';

type Out<E> = E extends ObjectEntries ? v.InferOutput<v.ObjectSchema<E, undefined>> : Record<string, never>;
type BodyOut<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
type GroupsOut<G> = G extends Record<string, AnySchema> ? { [K in keyof G]?: v.InferOutput<G[K]> } : unknown;
type ResponseOut<S> = S extends AnySchema ? v.InferInput<S> : unknown;

export interface RawResult {
  raw: true;
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}

export const rawResponse = (statusCode: number, body: string, headers: Record<string, string>): RawResult => ({
  raw: true,
  statusCode,
  headers,
  body,
});

export interface RouteRequest<R extends RouteDef> {
  ctx: R['tenancy'] extends 'project' ? TenantContext : R['tenancy'] extends 'account' ? AccountContext : undefined;
  /** The calling key (absent on public routes). */
  principal: R['tenancy'] extends 'public' ? undefined : Principal;
  params: Out<R['params']>;
  query: Out<R['query']> & GroupsOut<R['queryGroups']>;
  body: BodyOut<R['body']>;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  sourceIp: string;
  event: APIGatewayProxyEventV2;
}

export type RouteImpl<R extends RouteDef> = (req: RouteRequest<R>) => Promise<ResponseOut<R['response']> | RawResult>;

export type RouteImpls<T extends Record<string, RouteDef>> = { [K in keyof T]: RouteImpl<T[K]> };

/**
 * A route's module, imported on its first call and kept: later calls skip the import, whose specifier
 * Node resolves again each time (a round trip to tsx's loader thread in the local stack and tests).
 */
export function onFirstCall<M>(load: () => Promise<M>): () => Promise<M> {
  let loaded: Promise<M> | undefined;
  return () => (loaded ??= load());
}

/** A group's route modules by name, each imported on its first call and kept (`onFirstCall`). */
export function routeModules<L extends Record<string, () => Promise<unknown>>>(loaders: L): L {
  return Object.fromEntries(Object.entries(loaders).map(([name, load]) => [name, onFirstCall(load)])) as L;
}

export const fullPath = (route: Pick<RouteDef, 'path' | 'root'>) => (route.root ? route.path : API_PREFIX + route.path);
/** The API Gateway route key, e.g. `GET /api/v1/tickets/{ticketId}`. */
export const routeKey = (route: Pick<RouteDef, 'method' | 'path' | 'root'>) => `${route.method} ${fullPath(route)}`;

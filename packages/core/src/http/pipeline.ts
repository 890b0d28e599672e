import middy, { type MiddlewareObj, type Request } from '@middy/core';
import type httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as v from 'valibot';
import type { AccountContext, Principal, TenantContext } from '../auth/context.js';
import { resolvePrincipal } from '../auth/principal.js';
import { requirePlan } from '../auth/quota.js';
import { assertDeployedConfig } from '../config.js';
import { logger } from '../logger.js';
import { problem } from '../errors/problem.js';
import { errors, type FieldIssue } from '../errors/common.js';
import { HttpError } from '../errors/problem.js';
import { createMatcher } from './match.js';
import { countRequest, rateHeaders, type RateState } from './rate-limit.js';
import { routeKey, type RawResult, type RouteDef, type RouteImpl, type RouteImpls } from './route.js';
import { resolveTenant } from './tenancy.js';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

interface State {
  route?: RouteDef;
  impl?: RouteImpl<RouteDef>;
  principal?: Principal;
  ctx?: AccountContext | TenantContext;
  rate?: RateState;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

const states = new WeakMap<Event, State>();
const stateOf = (event: Event): State => {
  let s = states.get(event);
  if (!s) states.set(event, (s = { params: {}, query: {}, body: undefined }));
  return s;
};

const headerOf = (event: Event, name: string) => event.headers?.[name.toLowerCase()];

const toIssues = (issues: v.BaseIssue<unknown>[], where: FieldIssue['in']): FieldIssue[] =>
  issues.map((issue) => ({ field: v.getDotPath(issue) ?? (where === 'body' ? '(body)' : '(query)'), in: where, message: issue.message }));

const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): Result => ({
  statusCode,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

/** 1. Every failure becomes the spec's error shape; a 500 never carries a stack. */
const errorResponder = (): MiddlewareObj<Event, Result> => ({
  onError: async (request) => {
    const state = stateOf(request.event);
    const rate = state.rate ? rateHeaders(state.rate) : {};
    let error = request.error;
    const status = (error as { statusCode?: number } | undefined)?.statusCode;
    if (!(error instanceof HttpError) && typeof status === 'number' && status >= 400 && status < 500) {
      // Errors raised by middy middlewares (multipart parsing): the request is at fault.
      error = errors.validation([{ field: '(body)', in: 'body', message: error?.message ?? 'Invalid request body' }]);
    }
    if (!(error instanceof HttpError)) {
      logger.error('Unhandled error', { error: error as Error, routeKey: request.event.routeKey });
      error = errors.internal();
    }
    const e = error as HttpError;
    request.response = json(e.status, e.toBody(), { ...rate, ...(e.headers ?? {}) });
  },
  after: async (request) => {
    const state = stateOf(request.event);
    if (request.response && state.rate) {
      request.response.headers = { ...request.response.headers, ...rateHeaders(state.rate) };
    }
  },
});

/** 2. The route, by API Gateway's route key; `$default` (unknown paths) answers 404 or 405. */
const routeResolver = (routes: Map<string, { route: RouteDef; impl: RouteImpl<RouteDef> }>, allRoutes: RouteDef[]) => {
  const match = createMatcher(allRoutes);
  return {
    before: async (request: Request<Event, Result>) => {
      const event = request.event;
      const bound = routes.get(event.routeKey);
      if (!bound) {
        const found = match(event.requestContext.http.method, event.rawPath);
        // A valid key's request counts and carries the rate-limit headers even when it hits no route.
        const principal = await principalOf(event);
        if (principal) await countAgainst(stateOf(event), principal);
        if (found?.kind === 'method-not-allowed') throw errors.methodNotAllowed(found.allowed);
        throw problem('not_found', { route: `${event.requestContext.http.method} ${event.rawPath}` });
      }
      Object.assign(stateOf(event), bound);
    },
  } satisfies MiddlewareObj<Event, Result>;
};

const bearerOf = (event: Event) => {
  const header = headerOf(event, 'authorization');
  return header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
};

const principalOf = async (event: Event) => {
  const secret = bearerOf(event);
  return secret ? resolvePrincipal(secret) : null;
};

/** 3. The API key. */
const authenticate = (): MiddlewareObj<Event, Result> => ({
  before: async ({ event }) => {
    const state = stateOf(event);
    if (state.route!.tenancy === 'public') return;
    const secret = bearerOf(event);
    if (!secret) throw errors.unauthorized();
    const principal = await resolvePrincipal(secret);
    if (!principal) throw problem('auth.unauthorized', { revoked: true });
    state.principal = principal;
  },
});

/** 4. IP allowlist, then scope: both answer 403 auth.forbidden. */
const authorize = (): MiddlewareObj<Event, Result> => ({
  before: async ({ event }) => {
    const { principal, route } = stateOf(event);
    if (!principal) return;
    const ip = event.requestContext.http.sourceIp;
    // The address parser loads only for keys that have an allowlist.
    if (principal.allowIps.length > 0 && !(await import('./ip.js')).ipAllowed(ip, principal.allowIps)) throw problem('auth.forbidden', { ip });
    const scope = route!.scope;
    if (scope && principal.scopes.length > 0 && !principal.scopes.includes(scope)) {
      throw problem('auth.forbidden', { scope });
    }
  },
});

/** 5. Project and environment, then the plan a gated feature needs. */
const tenancy = (): MiddlewareObj<Event, Result> => ({
  before: async ({ event }) => {
    const state = stateOf(event);
    if (!state.principal) return;
    const header = (name: string) => headerOf(event, name);
    const query = event.queryStringParameters ?? {};
    state.ctx = resolveTenant(state.principal, state.route!.tenancy === 'project', {
      project: header('service-project') !== undefined ? { value: header('service-project')!, from: 'header' } : query.project !== undefined ? { value: query.project, from: 'query' } : undefined,
      environment:
        header('service-environment') !== undefined
          ? { value: header('service-environment')!, from: 'header' }
          : query.environment !== undefined
            ? { value: query.environment, from: 'query' }
            : undefined,
    });
    const plan = state.route!.plan;
    if (plan) requirePlan(state.ctx, plan.minimum, plan.feature);
  },
});

/**
 * 3b. Rate limit, per key, counted in DynamoDB right after authentication, so every request of a valid
 * key counts and carries the X-RateLimit headers, refused ones (scope, IP, project) included.
 */
async function countAgainst(state: State, principal: Principal) {
  state.rate = await countRequest(principal.keyId, principal.rateLimit);
  if (state.rate.exceeded) {
    const retryAfter = Math.max(1, state.rate.reset - Math.floor(Date.now() / 1000));
    throw problem('rate_limit.exceeded', { limit: principal.rateLimit, retryAfter });
  }
}

const rateLimit = (): MiddlewareObj<Event, Result> => ({
  before: async ({ event }) => {
    const state = stateOf(event);
    if (state.principal) await countAgainst(state, state.principal);
  },
});

const decodeBody = (event: Event) =>
  event.body === undefined || event.body === null ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;

const parseBody = (event: Event, route: RouteDef): unknown => {
  const text = decodeBody(event);
  const type = (headerOf(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (route.bodyType === 'form-or-json' && type === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  // No body at all reads as {}: routes whose fields are all optional (POST /webhooks/{id}/test) need none.
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'The request body is not valid JSON.' }]);
  }
  // Every JSON body of the API is an object, and valibot's object schemas take an array (`[]` has no
  // unknown key): an array, null, string or number is refused here, once for every route.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'Expected a JSON object' }]);
  }
  return parsed;
};

/**
 * The multipart parser crashes the process on a body cut off before its closing boundary (an 'error'
 * event nobody listens to): such a body is refused here first.
 */
function assertCompleteMultipart(event: Event) {
  const type = headerOf(event, 'content-type') ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!/^multipart\/form-data/i.test(type.trim()) || !boundary) {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'Expected multipart/form-data with a boundary' }]);
  }
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  if (!body.includes(`--${boundary[1] ?? boundary[2]}--`)) {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'The multipart body is incomplete (no closing boundary)' }]);
  }
}

/** 7. Path, query and body validation against the route's valibot schemas. */
const validate = (multipart: (() => Promise<ReturnType<typeof httpMultipartBodyParser>>) | undefined): MiddlewareObj<Event, Result> => ({
  before: async (request) => {
    const { event } = request;
    const state = stateOf(event);
    const route = state.route!;
    if (route.params) {
      const parsed = v.safeParse(v.object(route.params), event.pathParameters ?? {});
      if (!parsed.success) throw errors.notFound();
      state.params = parsed.output;
    }
    const { project: _p, environment: _e, ...rawQuery } = event.queryStringParameters ?? {};
    if (route.query) {
      const parsed = v.safeParse(v.object(route.query), rawQuery);
      if (!parsed.success) throw errors.validation(toIssues(parsed.issues, 'query'));
      state.query = parsed.output;
    }
    if (!route.body) return;
    let input: unknown;
    if (route.bodyType === 'multipart') {
      if (!multipart) throw new Error(`Route ${route.id} takes multipart but its group handler has no parser`);
      assertCompleteMultipart(event);
      await (await multipart()).before!(request as never);
      input = event.body;
    } else {
      input = parseBody(event, route);
    }
    const parsed = v.safeParse(route.body, input);
    if (!parsed.success) throw errors.validation(toIssues(parsed.issues, 'body'));
    state.body = parsed.output;
  },
});

export interface GroupHandlerOptions {
  /** Every route of the API, so that unknown paths and wrong methods are told apart (the `$default` route). */
  allRoutes?: RouteDef[];
  /** Busboy limits for multipart routes. */
  multipart?: { fileSize: number; files?: number };
}

/**
 * One Lambda handler for an endpoint group: dispatches on API Gateway's route key to the bound
 * implementation, behind the whole request pipeline.
 */
export function createGroupHandler<T extends Record<string, RouteDef>>(
  routes: T,
  impls: RouteImpls<T>,
  options: GroupHandlerOptions = {},
) {
  assertDeployedConfig();
  const table = new Map<string, { route: RouteDef; impl: RouteImpl<RouteDef> }>();
  for (const [name, route] of Object.entries(routes)) {
    table.set(routeKey(route), { route, impl: impls[name as keyof T] as unknown as RouteImpl<RouteDef> });
  }
  // The multipart parser (busboy) loads on the first multipart request, not at cold start.
  const limits = options.multipart && { fileSize: options.multipart.fileSize, files: options.multipart.files ?? 1 };
  let parser: Promise<ReturnType<typeof httpMultipartBodyParser>> | undefined;
  const multipart = limits
    ? () => (parser ??= import('@middy/http-multipart-body-parser').then(({ default: create }) => create({ busboy: { limits }, charset: 'utf8' })))
    : undefined;

  const dispatch = async (event: Event, _context: Context): Promise<Result> => {
    const state = stateOf(event);
    const result = (await state.impl!({
      ctx: state.ctx as never,
      principal: state.principal as never,
      params: state.params as never,
      query: state.query as never,
      body: state.body as never,
      headers: event.headers ?? {},
      sourceIp: event.requestContext.http.sourceIp,
      event,
    })) as unknown;
    if (result && typeof result === 'object' && (result as RawResult).raw === true) {
      const raw = result as RawResult;
      return { statusCode: raw.statusCode, headers: raw.headers, body: raw.body };
    }
    return json(200, result);
  };

  return middy<Event, Result>()
    .use(errorResponder())
    .use(routeResolver(table, options.allRoutes ?? Object.values(routes)))
    .use(authenticate())
    .use(rateLimit())
    .use(authorize())
    .use(tenancy())
    .use(validate(multipart))
    .handler(dispatch);
}

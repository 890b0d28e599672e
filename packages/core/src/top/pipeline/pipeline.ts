import middy from '@middy/core';
import type httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import type { Context } from 'aws-lambda';
import { type RawResult, type RouteDef, type RouteImpl, type RouteImpls, routeKey } from '../../kernel/api/route.js';
import { assertDeployedConfig } from '../../kernel/config.js';
import { withLogContext } from '../../kernel/logger.js';
import { must } from '../../kernel/must.js';
import { loadSigningSecret } from '../../kernel/secrets.js';
import { authenticate } from './middleware/authenticate.js';
import { authorize } from './middleware/authorize.js';
import { errorResponder } from './middleware/error-responder.js';
import { headBody } from './middleware/head-body.js';
import { linkHeaders } from './middleware/link-headers.js';
import { rateLimit } from './middleware/rate-limit.js';
import { type BoundRoutes, resolveRoute } from './middleware/resolve-route.js';
import { securityHeaders } from './middleware/security-headers.js';
import { type Event, json, type PipelineState, type Result } from './middleware/state.js';
import { tenancy } from './middleware/tenancy.js';
import { unknownRoute } from './middleware/unknown-route.js';
import { type MultipartParser, validate } from './middleware/validate.js';

export interface GroupHandlerOptions {
  /**
   * Every route of the API, so that unknown paths and wrong methods are told apart (the `$default`
   * route). Loaded on the first request that matches none of the group's routes: the whole route
   * table (every schema) is not needed at init.
   */
  allRoutes?: () => Promise<RouteDef[]>;
  /** Busboy limits for multipart routes. */
  multipart?: { fileSize: number; files?: number };
}

/** The handler's view of the request: middy passes data to handlers on the context. */
type PipelineContext = Context & { pipeline: PipelineState };

/** 9. The route's implementation: its body (200, JSON) or a raw result (HTML pages, redirects). */
async function dispatch(event: Event, context: Context): Promise<Result> {
  const state = (context as PipelineContext).pipeline;
  const result = (await must(
    state.impl,
    'the route implementation',
  )({
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
}

/**
 * One Lambda handler for an endpoint group: the request pipeline, one middleware per step in the
 * order docs/architecture.md (A request) numbers them, then the bound implementation:
 * 0. HEAD's body, security headers and a mailed link's headers, around everything else, 1. error
 * responder, 2. route resolution, 3. authentication, 4. rate limit, 5. unknown route
 * (404/405), 6. IP allowlist and scope, 7. tenancy and plan gate, 8. validation, 9. dispatch.
 * Each step reads and writes the request's `PipelineState` in middy's `request.internal`.
 */
export function createGroupHandler<T extends Record<string, RouteDef>>(
  routes: T,
  impls: RouteImpls<T>,
  options: GroupHandlerOptions = {},
) {
  assertDeployedConfig();
  const bound: BoundRoutes = new Map();
  for (const [name, route] of Object.entries(routes)) {
    bound.set(routeKey(route), { route, impl: impls[name as keyof T] as unknown as RouteImpl<RouteDef> });
  }
  // The multipart parser (busboy) loads on the first multipart request, not at cold start.
  const limits = options.multipart && { fileSize: options.multipart.fileSize, files: options.multipart.files ?? 1 };
  let parser: Promise<ReturnType<typeof httpMultipartBodyParser>> | undefined;
  const multipart: MultipartParser | undefined = limits
    ? () =>
        (parser ??= import('@middy/http-multipart-body-parser').then(({ default: create }) =>
          create({ busboy: { limits }, charset: 'utf8' }),
        ))
    : undefined;

  // Read at cold start, awaited by every request (a no-op once read, until its refresh is due).
  loadSigningSecret().catch(() => undefined);
  // A route that runs out of time answers 503 (a TimeoutError) with half a second left, not Lambda's bare timeout.
  const pipeline = middy<Event, Result, Error, Context, PipelineState>({ timeoutEarlyInMillis: 500 })
    .use(headBody())
    .use(securityHeaders())
    .use(linkHeaders())
    .use(errorResponder())
    .before(() => loadSigningSecret())
    .use(resolveRoute(bound, options.allRoutes ?? (async () => Object.values(routes))))
    .use(authenticate())
    .use(rateLimit())
    .use(unknownRoute())
    .use(authorize())
    .use(tenancy())
    .use(validate(multipart))
    .before((request) => {
      (request.context as PipelineContext).pipeline = request.internal;
    })
    .handler(dispatch);
  // Every log line of the request carries its id (API Gateway's), set once here.
  return (event: Event, context: Context) =>
    withLogContext({ requestId: event.requestContext?.requestId ?? context.awsRequestId }, () =>
      pipeline(event, context),
    );
}

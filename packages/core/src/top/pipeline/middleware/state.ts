import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RateState } from '../../../identity/rate-limit.js';
import type { RouteDef, RouteImpl } from '../../../kernel/api/route.js';
import type { AccountContext, Principal, TenantContext } from '../../../kernel/tenant.js';

export type Event = APIGatewayProxyEventV2;
export type Result = APIGatewayProxyStructuredResultV2;

/**
 * What the middlewares learn about one request, in middy's `request.internal` (a fresh object per
 * invocation): each step reads what the ones before it wrote. A type alias, not an interface, so it
 * satisfies middy's `Record<string, unknown>` bound.
 */
export type PipelineState = {
  /** The bound route; absent on `$default` (an unknown path or method), see `unknown`. */
  route?: RouteDef;
  impl?: RouteImpl<RouteDef>;
  /** Set on `$default`: the answer to give once the key (if any) has been counted. */
  unknown?: { allowed?: string[] };
  principal?: Principal;
  ctx?: AccountContext | TenantContext;
  /** The key's count, started by authentication when it read the key (rate-limit.ts countOnKeyRead). */
  counting?: Promise<RateState>;
  rate?: RateState;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
};

export type PipelineRequest = Request<Event, Result, Error, Context, PipelineState>;
export type Middleware = MiddlewareObj<Event, Result, Error, Context, PipelineState>;

export const headerOf = (event: Event, name: string) => event.headers?.[name.toLowerCase()];

export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): Result => ({
  statusCode,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext } from '../../packages/local/src/lambda-context.js';

/** An API Gateway HTTP API v2 event, for invoking a group handler directly. */
export function apiEvent(input: {
  routeKey: string;
  path: string;
  key?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: string;
  sourceIp?: string;
}): APIGatewayProxyEventV2 {
  const [method] = input.routeKey.split(' ');
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  if (input.key) headers.authorization = `Bearer ${input.key}`;
  return {
    version: '2.0',
    routeKey: input.routeKey,
    rawPath: input.path,
    rawQueryString: new URLSearchParams(input.query ?? {}).toString(),
    headers,
    queryStringParameters: input.query,
    pathParameters: input.pathParameters,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'test',
      domainPrefix: 'test',
      http: {
        method: method!,
        path: input.path,
        protocol: 'HTTP/1.1',
        sourceIp: input.sourceIp ?? '127.0.0.1',
        userAgent: 'vitest',
      },
      requestId: 'test',
      routeKey: input.routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: input.body,
    isBase64Encoded: false,
  };
}

type Handler = (
  event: APIGatewayProxyEventV2,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** Invokes a handler like Lambda would and parses its JSON answer. */
export async function invoke(handler: Handler, event: APIGatewayProxyEventV2) {
  const result = await handler(event, lambdaContext('test'));
  return {
    status: result.statusCode!,
    headers: (result.headers ?? {}) as Record<string, string>,
    body: result.body ? JSON.parse(result.body) : undefined,
  };
}

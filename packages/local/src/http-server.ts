import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewaySelector, gatewayRoutes } from '@helpdesk/core/top/pipeline/match';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { loadHandler } from './handlers.js';
import { lambdaContext } from './lambda-context.js';

/** The HTTP functions' timeout (infra/constructs/api.ts), which API Gateway's 30 s bounds. */
const FUNCTION_TIMEOUT_MS = 29_000;
/** API Gateway HTTP APIs refuse request bodies over 10 MB themselves. */
const MAX_PAYLOAD = 10 * 1024 * 1024;
/**
 * Lambda refuses a synchronous invoke whose payload, here the whole payload 2.0 event as JSON, exceeds
 * 6 MiB (RequestEntityTooLargeException): a base64 body needs 4/3 of its bytes plus the event around it.
 */
export const MAX_EVENT_BYTES = 6 * 1024 * 1024;
/**
 * HTTP API's own answer when the Lambda invoke is refused as too large (the same status for bodies over
 * 10 MB). It is not the API's error shape, and HTTP APIs have no gateway responses to reshape it.
 */
const requestTooLarge: APIGatewayProxyStructuredResultV2 = {
  statusCode: 413,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'Request Entity Too Large' }),
};

/** The bytes Lambda counts against MAX_EVENT_BYTES. */
export const eventBytes = (event: APIGatewayProxyEventV2) => Buffer.byteLength(JSON.stringify(event));
const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

const readBody = (req: http.IncomingMessage) =>
  new Promise<Buffer | 'too-large'>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_PAYLOAD) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_PAYLOAD ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * The request target as a URL on this server: the path is read as a path even when it starts with `//`
 * (`new URL('//evil.example/x', base)` would take `evil.example` for the host and serve `/x`).
 */
const requestUrl = (req: http.IncomingMessage) =>
  new URL(`http://localhost${req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`}`);

/** Turns a Node request into the API Gateway HTTP API (payload 2.0) event Lambda would receive. */
export function toApiGatewayEvent(
  req: http.IncomingMessage,
  body: Buffer,
  match: { routeKey: string; pathParameters?: Record<string, string> },
): APIGatewayProxyEventV2 {
  const url = requestUrl(req);
  // Repeated headers joined by commas, as API Gateway passes them (Node's `headers` keeps only the first
  // Authorization, so two keys would have passed as the first one).
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values !== undefined) headers[name.toLowerCase()] = values.join(name === 'cookie' ? '; ' : ',');
  }
  const query: Record<string, string> = {};
  for (const [k, val] of url.searchParams) query[k] = k in query ? `${query[k]},${val}` : val;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = new Date();
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie ? headers.cookie.split(';').map((c) => c.trim()) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: match.pathParameters && Object.keys(match.pathParameters).length ? match.pathParameters : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        // The socket's address, as API Gateway takes it from the connection, never from X-Forwarded-For.
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

const send = (res: http.ServerResponse, result: APIGatewayProxyStructuredResultV2) => {
  const headers = { ...(result.headers ?? {}) } as Record<string, string | number | boolean | string[]>;
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers as http.OutgoingHttpHeaders);
  res.end(
    result.body === undefined ? undefined : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body,
  );
};

/** The local API Gateway: serves the route table by invoking each route's group Lambda handler. */
/** `answered` runs after each request (the local stack nudges its outbox relay: no wait for its next poll). */
export async function startHttpServer(
  port: number,
  host = '127.0.0.1',
  answered: () => void = () => {},
  functionTimeoutMs = FUNCTION_TIMEOUT_MS,
) {
  const select = createGatewaySelector(gatewayRoutes(allRoutes));
  const server = http.createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      if (body === 'too-large') return send(res, requestTooLarge);
      const path = requestUrl(req).pathname;
      // The route API Gateway would take (its key and path parameters), or `$default` on the account Lambda.
      const target = select(req.method ?? 'GET', path);
      const group = target ? target.route.group : 'account';
      const event = toApiGatewayEvent(
        req,
        body,
        target ? { routeKey: target.route.key, pathParameters: target.pathParameters } : { routeKey: '$default' },
      );
      if (eventBytes(event) > MAX_EVENT_BYTES) return send(res, requestTooLarge);
      const handler = await loadHandler('http', group);
      const result = (await handler(
        event,
        lambdaContext(`helpdesk-${group}`, functionTimeoutMs),
      )) as APIGatewayProxyStructuredResultV2;
      send(res, result);
      answered();
    } catch (err) {
      // The client went away mid-request: nobody to answer.
      if (req.destroyed || res.destroyed || (err as { code?: string }).code === 'ECONNRESET') return;
      // A handler that throws past its own error middleware is a Lambda failure: API Gateway answers 500.
      console.error(err);
      send(res, {
        statusCode: 500,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { code: 'internal', message: 'Internal Server Error' } }),
      });
    }
  });
  server.keepAliveTimeout = 5_000;
  // Requests Node refuses before any handler (a request line or headers over its 16 KB, a malformed
  // request) still get the error shape, with 431 or 400 as Node decided.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({
      error: {
        code: 'validation.failed',
        message: tooLarge ? 'The request line and headers are too large.' : 'The request is malformed.',
        details: { fields: [{ field: '(request)', in: 'header', message: tooLarge ? 'too large' : 'malformed' }] },
      },
    });
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { draw, type FaultService, type ServiceFaults } from './spec.js';

/** Counts of what the proxy did, by verdict (printed when the stack stops). */
export type FaultCounts = Record<string, number>;

type AwsService = Exclude<FaultService, 'smtp'>;

/** The operation an SDK request names: its X-Amz-Target (JSON protocols), else its method and path. */
function operationOf(service: AwsService, req: http.IncomingMessage) {
  const target = req.headers['x-amz-target'];
  if (typeof target === 'string') return target.slice(target.lastIndexOf('.') + 1);
  if (service === 's3') {
    const ops: Record<string, string> = {
      GET: 'GetObject',
      PUT: 'PutObject',
      DELETE: 'DeleteObject',
      HEAD: 'HeadObject',
    };
    return ops[req.method ?? ''] ?? 'PostObject';
  }
  if (service === 'ses') return (req.url ?? '').includes('/outbound-emails') ? 'SendEmail' : 'Other';
  return 'Other';
}

/** Each service's own answers for throttling and server failure, as its SDK parses them. */
function failure(service: AwsService, kind: 'throttle' | 'error5xx') {
  const throttle = kind === 'throttle';
  const json = (status: number, type: string, extra: Record<string, string> = {}) => ({
    status,
    headers: { 'content-type': 'application/x-amz-json-1.0', ...extra },
    body: JSON.stringify({
      __type: type,
      message: throttle ? 'Rate exceeded (injected)' : 'Internal failure (injected)',
    }),
  });
  switch (service) {
    case 'dynamodb':
      return throttle
        ? json(400, 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException')
        : json(500, 'com.amazonaws.dynamodb.v20120810#InternalServerError');
    case 'sqs':
      return throttle
        ? json(400, 'com.amazonaws.sqs#ThrottlingException', { 'x-amzn-query-error': 'ThrottlingException;Sender' })
        : json(500, 'com.amazonaws.sqs#InternalError', { 'x-amzn-query-error': 'InternalError;Receiver' });
    case 's3': {
      const code = throttle ? 'SlowDown' : 'InternalError';
      return {
        status: throttle ? 503 : 500,
        headers: { 'content-type': 'application/xml' },
        body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>Injected</Message><RequestId>faults</RequestId></Error>`,
      };
    }
    case 'ses':
      return {
        status: throttle ? 429 : 500,
        headers: {
          'content-type': 'application/json',
          'x-amzn-errortype': throttle ? 'TooManyRequestsException' : 'InternalFailure',
        },
        body: JSON.stringify({ message: throttle ? 'Too many requests (injected)' : 'Internal failure (injected)' }),
      };
  }
}

const readAll = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * An HTTP proxy in front of one stand-in that injects the spec's faults. `onKill` runs when a kill
 * point is reached (the local stack then SIGKILLs itself).
 */
export async function startFaultProxy(
  service: AwsService,
  upstream: string,
  faults: ServiceFaults,
  onKill: () => void,
) {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const counts: FaultCounts = {};
  const held = new Set<http.ServerResponse>();
  let armed = false;
  const server = http.createServer(async (req, res) => {
    const body = await readAll(req).catch(() => undefined);
    if (!body) return;
    const operation = operationOf(service, req);
    const verdict = armed ? draw(faults) : 'pass';
    counts[verdict] = (counts[verdict] ?? 0) + 1;
    const latency = faults.latency;
    if (armed && latency && Math.random() < latency.rate) await new Promise((r) => setTimeout(r, latency.ms));
    if (verdict === 'reset') return req.socket.destroy();
    if (verdict === 'timeout') {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    if (verdict === 'throttle' || verdict === 'error5xx') {
      const f = failure(service, verdict);
      res.writeHead(f.status, { ...f.headers, 'content-length': Buffer.byteLength(f.body) });
      return res.end(f.body);
    }
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          if (verdict === 'lost') return req.socket.destroy();
          const kill = armed && faults.kill.find((k) => k.operation === operation);
          if (kill && (answer.statusCode ?? 500) < 300 && Math.random() < kill.rate) {
            counts[`kill:${operation}`] = (counts[`kill:${operation}`] ?? 0) + 1;
            return onKill();
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    forwarded.on('error', () => req.socket.destroy());
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    /** Faults start once the stack is up (its own setup, the demo seed, runs without them). */
    arm: () => {
      armed = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.socket?.destroy();
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

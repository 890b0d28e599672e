/**
 * One load run in its own thread: CLIENTS concurrent loops for SECONDS, then the latencies back to the
 * parent. Apart from the server's event loop, as real clients are, so the rate measures the server.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { API_OPS, type LoadSpec } from './load-ops.js';

const { spec, clients, seconds } = workerData as { spec: LoadSpec; clients: number; seconds: number };

/** Keep-alive sockets, one per client loop: no connection setup per request. */
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });

function apiCall(
  apiUrl: string,
  key: string,
  project: string,
  request: ReturnType<ReturnType<(typeof API_OPS)[keyof typeof API_OPS]>>,
) {
  const url = new URL(apiUrl + request.path);
  for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, String(v));
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'service-project': project };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise<boolean>((resolve, reject) => {
    const req = http.request(url, { method: request.method, headers, agent }, (res) => {
      res.resume(); // the body is not checked, only read to free the socket
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function operation(): Promise<(client: number, i: number) => Promise<boolean>> {
  if (spec.kind === 'api') {
    const build = (
      API_OPS[spec.op] as (p: Record<string, string>) => (c: number, i: number) => Parameters<typeof apiCall>[3]
    )(spec.params);
    return (c, i) => apiCall(spec.apiUrl, spec.key, spec.project, build(c, i));
  }
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, GetCommand } = await import('@aws-sdk/lib-dynamodb');
  // The SDK's own handler keeps connections alive.
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: spec.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  return async () => Boolean((await client.send(new GetCommand({ TableName: spec.tableName, Key: spec.key }))).Item);
}

const op = await operation();
const latencies: number[] = [];
let errors = 0;
const start = performance.now();
const end = start + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async (_, client) => {
    for (let i = 0; performance.now() < end; i++) {
      const t = performance.now();
      const ok = await op(client, i).catch(() => false);
      latencies.push(performance.now() - t);
      if (!ok) errors++;
    }
  }),
);
parentPort!.postMessage({ latencies, errors, elapsed: (performance.now() - start) / 1000 });
agent.destroy();

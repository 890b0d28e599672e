import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { API_PREFIX } from '@helpdesk/core/kernel/api/route';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import { createGatewaySelector, gatewayRoutes } from '@helpdesk/core/top/pipeline/match';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { BUNDLE_ENTRY_FILE, buildFunction } from '../infra/constructs/bundle.js';
import { FUNCTIONS_ROOT, REPO_ROOT } from '../infra/paths.js';
import { toApiGatewayEvent } from '../packages/local/src/http-server.js';
import { lambdaNode } from './lambda-node.js';
import { progress, type Stack } from './stack.js';

/**
 * The cold request: what the first caller of a new Lambda instance waits for, the import of the
 * bundle as deployed (init) plus the handler's first call of the group's most common route (the code it
 * loads on first use, its clients' first connections and requests), in a fresh Node process against the
 * local stack's stand-ins. The baseline is the least such a Lambda can do: a document client reading one
 * item by key, measured the same way.
 */
export interface ColdRequest {
  name: string;
  route: string;
  status: number;
  initMs: number;
  firstCallMs: number;
  totalMs: number;
}

/** Per group, the route most calls make (the one a new instance most likely starts with). */
export const COMMON_ROUTES: Record<string, (ids: Ids) => { method: string; path: string; body?: unknown }> = {
  account: () => ({ method: 'GET', path: '/projects' }),
  articles: () => ({ method: 'GET', path: '/articles/search?q=password' }),
  customers: (ids) => ({ method: 'GET', path: `/customers/${ids.customerId}` }),
  docs: () => ({ method: 'GET', path: '/webhook-event-types' }),
  emails: () => ({
    method: 'POST',
    path: '/emails/send',
    body: { to: 'cold@bench.example', subject: 'Hello', body: 'Plain *body*' },
  }),
  feedback: () => ({
    method: 'POST',
    path: '/feedback/conversations',
    body: { customer: { email: 'cold-fb@bench.example' }, body: 'Great support', rating: 5 },
  }),
  logs: () => ({
    method: 'POST',
    path: '/logs',
    body: { events: [{ level: 'error', message: 'Payment 1234 failed', scope: 'billing' }] },
  }),
  templates: () => ({ method: 'GET', path: '/email-templates' }),
  tickets: (ids) => ({ method: 'GET', path: `/tickets/${ids.ticketId}` }),
  webhooks: () => ({ method: 'GET', path: '/webhooks' }),
};

export interface Ids {
  ticketId: string;
  customerId: string;
}

const BASELINE_KEY = { pk: 'bench#baseline', sk: 'item' };

// Runs in a fresh process: import (init), then one invocation (first call), each timed on its own.
const CHILD = `const t = performance.now(); const m = await import(process.env.BENCH_BUNDLE); const init = performance.now() - t;
const deadline = Date.now() + 30000;
const context = { callbackWaitsForEmptyEventLoop: false, functionName: 'bench', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench', memoryLimitInMB: '1024',
  awsRequestId: 'bench', logGroupName: 'bench', logStreamName: 'bench', getRemainingTimeInMillis: () => deadline - Date.now() };
const f = performance.now(); const res = await m.handler(JSON.parse(process.env.BENCH_EVENT), context); const first = performance.now() - f;
process.stdout.write(JSON.stringify({ init, first, status: res?.statusCode ?? 0 })); process.exit(0);`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function eventFor(request: { method: string; path: string; body?: unknown }, key: string, project: string) {
  const select = createGatewaySelector(gatewayRoutes(allRoutes));
  const url = new URL(`http://localhost/api/v1${request.path}`);
  const found = select(request.method, url.pathname);
  if (!found) throw new Error(`cold request: no route for ${request.method} ${request.path}`);
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.body));
  const headers = {
    host: 'localhost',
    authorization: `Bearer ${key}`,
    'service-project': project,
    ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const req = {
    url: url.pathname + url.search,
    method: request.method,
    headers,
    headersDistinct: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as http.IncomingMessage;
  return {
    event: toApiGatewayEvent(req, body, { routeKey: found.route.key, pathParameters: found.pathParameters }),
    route: `${request.method} ${found.route.path.replace(API_PREFIX, '')}`,
  };
}

function run(bundle: string, event: unknown) {
  const out = spawnSync(lambdaNode().node, ['--input-type=module', '-e', CHILD], {
    env: {
      ...process.env,
      LOG_LEVEL: 'CRITICAL',
      BENCH_BUNDLE: pathToFileURL(bundle).href,
      BENCH_EVENT: JSON.stringify(event),
    },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`${bundle} failed its cold request: ${out.stderr.slice(0, 500)}`);
  return JSON.parse(out.stdout) as { init: number; first: number; status: number };
}

/** Medians over `rounds` fresh processes per group, interleaved so a busy moment hits all alike. */
export async function measureColdRequests(
  stack: Stack,
  project: string,
  ids: Ids,
  rounds: number,
): Promise<{ baseline: ColdRequest; groups: ColdRequest[] }> {
  await documentClient.send(
    new PutCommand({ TableName: stack.resources.tableName, Item: { ...BASELINE_KEY, note: 'cold-request baseline' } }),
  );
  const outRoot = mkdtempSync(path.join(tmpdir(), 'helpdesk-cold-'));
  try {
    progress(`cold requests: building ${Object.keys(COMMON_ROUTES).length} Lambdas and the baseline`);
    const build = (name: string, entry: string) => {
      const outdir = path.join(outRoot, name);
      mkdirSync(outdir, { recursive: true });
      buildFunction(entry, outdir);
      return path.join(outdir, BUNDLE_ENTRY_FILE);
    };
    const targets = [
      {
        name: 'baseline',
        route: 'GetItem by key',
        bundle: build('baseline', path.join(REPO_ROOT, 'bench', 'baseline-read.ts')),
        event: {},
      },
      ...Object.entries(COMMON_ROUTES).map(([group, request]) => {
        const { event, route } = eventFor(request(ids), stack.key(), project);
        return {
          name: `http/${group}`,
          route,
          bundle: build(group, path.join(FUNCTIONS_ROOT, 'http', `${group}.ts`)),
          event,
        };
      }),
    ];
    const samples = new Map(targets.map((t) => [t.name, [] as { init: number; first: number; status: number }[]]));
    for (let round = 1; round <= rounds; round++) {
      if (round === 1 || round % 5 === 0) progress(`cold requests: round ${round}/${rounds}`);
      for (const t of targets) samples.get(t.name)!.push(run(t.bundle, t.event));
    }
    const results = targets.map((t) => {
      const s = samples.get(t.name)!;
      const totals = s.map((x) => x.init + x.first);
      return {
        name: t.name,
        route: t.route,
        status: s.at(-1)!.status,
        initMs: median(s.map((x) => x.init)),
        firstCallMs: median(s.map((x) => x.first)),
        totalMs: median(totals),
      };
    });
    return { baseline: results[0]!, groups: results.slice(1) };
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
}

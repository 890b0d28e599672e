import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Reads a synthesized cloud assembly (cdk.out) the way `cdk deploy` and the Lambda service use it: the
 * stack template names each function's code by S3 key and its handler as `file.export`; the asset
 * manifest maps that key to the folder `cdk deploy` would zip. Nothing here depends on how the code
 * was bundled.
 */

type Intrinsic = {
  Ref?: string;
  'Fn::GetAtt'?: [string, string];
  'Fn::Join'?: [string, unknown[]];
  'Fn::Sub'?: unknown;
};
export type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

export interface LambdaFunction {
  logicalId: string;
  /** The asset folder in cdk.out (Lambda's /var/task). */
  codeDir: string;
  /** `Handler`: `index.handler` is the export `handler` of `index.{js,mjs,cjs}`. */
  handler: string;
  runtime: string;
  memorySize: number;
  timeout: number;
  environment: Record<string, unknown>;
}

export function readAssembly(outdir: string, stackName: string) {
  const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string; file?: string } }>;
  };
  const stack = manifest.artifacts[stackName];
  if (!stack?.properties?.templateFile) throw new Error(`No stack ${stackName} in ${outdir}`);
  const resources = (
    JSON.parse(readFileSync(path.join(outdir, stack.properties.templateFile), 'utf8')) as { Resources: Resources }
  ).Resources;

  // S3 object key -> asset folder, from every asset manifest of the assembly.
  const folders = new Map<string, string>();
  for (const artifact of Object.values(manifest.artifacts)) {
    if (artifact.type !== 'cdk:asset-manifest' || !artifact.properties?.file) continue;
    const assets = JSON.parse(readFileSync(path.join(outdir, artifact.properties.file), 'utf8')) as {
      files?: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
    };
    for (const file of Object.values(assets.files ?? {})) {
      for (const d of Object.values(file.destinations)) folders.set(d.objectKey, path.join(outdir, file.source.path));
    }
  }

  const functions: LambdaFunction[] = Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([logicalId, r]) => {
      const p = r.Properties!;
      const codeDir = folders.get(p.Code?.S3Key);
      if (!codeDir)
        throw new Error(`${logicalId}: its code (${JSON.stringify(p.Code)}) is not an asset of the assembly`);
      return {
        logicalId,
        codeDir,
        handler: p.Handler,
        runtime: p.Runtime,
        memorySize: p.MemorySize ?? 128,
        timeout: p.Timeout ?? 3,
        environment: p.Environment?.Variables ?? {},
      };
    });
  return { resources, functions };
}

/** The function a logical id's `Ref`/`Fn::GetAtt` (in an integration, a mapping) points at. */
export const referencedId = (value: unknown): string | undefined => {
  const v = value as Intrinsic | undefined;
  return v?.Ref ?? v?.['Fn::GetAtt']?.[0];
};

/** Each HTTP API route key with the function its integration invokes. */
export function routesByFunction(resources: Resources): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::ApiGatewayV2::Route') continue;
    const parts = (r.Properties?.Target?.['Fn::Join']?.[1] ?? []) as unknown[];
    const integration = resources[referencedId(parts.find((p) => typeof p === 'object')) ?? ''];
    const fn = referencedId(integration?.Properties?.IntegrationUri);
    if (fn) out.set(fn, [...(out.get(fn) ?? []), r.Properties!.RouteKey as string]);
  }
  return out;
}

/** Each SQS event source mapping: function -> (queue logical id, batch size). */
export function queueSources(resources: Resources): Map<string, { queue: string; batchSize: number }> {
  const out = new Map<string, { queue: string; batchSize: number }>();
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::Lambda::EventSourceMapping') continue;
    const queue = referencedId(r.Properties?.EventSourceArn);
    const fn = referencedId(r.Properties?.FunctionName);
    if (fn && queue && resources[queue]?.Type === 'AWS::SQS::Queue')
      out.set(fn, { queue, batchSize: r.Properties?.BatchSize ?? 10 });
  }
  return out;
}

/** Each DynamoDB stream event source mapping: function -> (table logical id, batch size). */
export function streamSources(resources: Resources): Map<string, { table: string; batchSize: number }> {
  const out = new Map<string, { table: string; batchSize: number }>();
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::Lambda::EventSourceMapping') continue;
    const table = referencedId(r.Properties?.EventSourceArn);
    const fn = referencedId(r.Properties?.FunctionName);
    if (fn && table && resources[table]?.Type === 'AWS::DynamoDB::Table')
      out.set(fn, { table, batchSize: r.Properties?.BatchSize ?? 100 });
  }
  return out;
}

/**
 * The template's environment with CloudFormation intrinsics resolved: a variable the local stack
 * also sets (TABLE_NAME, QUEUE_URL_*, ATTACHMENTS_BUCKET) takes the stand-in's value from `local`;
 * anything else gets a plausible value of its kind (an ARN, a name, a URL, a secret).
 */
export function resolveEnvironment(
  vars: Record<string, unknown>,
  resources: Resources,
  local: Record<string, string | undefined>,
) {
  const placeholder = (value: unknown): string => {
    if (typeof value === 'string') return value.startsWith('{{resolve:') ? 'bundle-test-secret-value' : value;
    const v = value as Intrinsic;
    if (v['Fn::Join']) {
      const joined = v['Fn::Join'][1].map(placeholder).join(v['Fn::Join'][0]);
      return joined.includes('{{resolve:') ? 'bundle-test-secret-value' : joined;
    }
    const id = referencedId(v) ?? 'Unknown';
    const attribute = v['Fn::GetAtt']?.[1];
    const service = (resources[id]?.Type ?? 'AWS::Unknown::Thing').split('::')[1]!.toLowerCase();
    if (attribute === 'Arn') return `arn:aws:${service}:us-east-1:000000000000:${id}`;
    if (attribute?.endsWith('Endpoint')) return `https://${id.toLowerCase()}.execute-api.us-east-1.amazonaws.com`;
    return `${id}-bundle-test`;
  };
  return Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : (local[name] ?? placeholder(value)),
    ]),
  );
}

/** What the child process does: what Lambda's Node runtime does with a handler string, then invokes it. */
const RUNNER = `
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
process.once('message', async ({ handler, events, timeoutMs }) => {
  const reply = (msg) => process.send(msg, () => process.exit(0));
  const root = process.env.LAMBDA_TASK_ROOT;
  const dot = handler.lastIndexOf('.');
  const base = path.join(root, handler.slice(0, dot));
  const file = ['.js', '.mjs', '.cjs'].map((ext) => base + ext).find((f) => existsSync(f));
  if (!file) return reply({ loadError: 'No file for handler ' + handler + ' in ' + root });
  let fn;
  try {
    fn = (await import(pathToFileURL(file).href))[handler.slice(dot + 1)];
  } catch (err) {
    return reply({ loadError: String(err && err.stack || err) });
  }
  if (typeof fn !== 'function') return reply({ loadError: 'Export ' + handler.slice(dot + 1) + ' of ' + file + ' is not a function' });
  const results = [];
  for (const event of events) {
    const deadline = Date.now() + timeoutMs;
    const context = {
      awsRequestId: crypto.randomUUID(), functionName: process.env.AWS_LAMBDA_FUNCTION_NAME, functionVersion: '$LATEST',
      invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:' + process.env.AWS_LAMBDA_FUNCTION_NAME,
      memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE, logGroupName: 'bundle-test', logStreamName: 'bundle-test',
      callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
    try {
      results.push({ result: await fn(event, context) });
    } catch (err) {
      results.push({ error: String(err && err.stack || err) });
    }
  }
  reply({ results });
});
`;

export interface Invocation {
  loadError?: string;
  results?: { result?: any; error?: string }[];
  stderr: string;
}

/** A scratch root the unprivileged child can traverse; code folders inside it are made read-only. */
export function scratchRoot() {
  const root = mkdtempSync(path.join(tmpdir(), 'helpdesk-bundles-'));
  chmodSync(root, 0o755);
  writeFileSync(path.join(root, 'runner.mjs'), RUNNER, { mode: 0o644 });
  return root;
}

/** Removes a scratch root, giving its read-only folders their write bit back first (needed when not root). */
export function removeScratch(root: string) {
  chmodTree(root, () => 0o755);
  rmSync(root, { recursive: true, force: true });
}

/** `chmod -R`: children first, so a folder loses its write bit last. */
const chmodTree = (dir: string, mode: (isDir: boolean) => number) => {
  const walk = (p: string, isDir: boolean) => {
    if (isDir) for (const e of readdirSync(p, { withFileTypes: true })) walk(path.join(p, e.name), e.isDirectory());
    chmodSync(p, mode(isDir));
  };
  walk(dir, true);
};

/**
 * Runs one function as Lambda would: a fresh node process, a read-only copy of its code folder as the
 * working directory and LAMBDA_TASK_ROOT, only the given environment (no inherited NODE_OPTIONS or
 * loaders), and under an unprivileged user when the tests run as root (root ignores file modes).
 */
export function invoke(
  root: string,
  fn: LambdaFunction,
  env: Record<string, string>,
  events: unknown[],
  limitMs = 60_000,
): Promise<Invocation> {
  const task = path.join(root, fn.logicalId);
  mkdirSync(task);
  cpSync(fn.codeDir, task, { recursive: true });
  chmodTree(task, (isDir) => (isDir ? 0o555 : 0o444));
  const asRoot = process.getuid?.() === 0;
  return new Promise((resolve) => {
    let stderr = '';
    const child = fork(path.join(root, 'runner.mjs'), [], {
      cwd: task,
      execPath: process.execPath,
      execArgv: [],
      env: {
        ...env,
        LAMBDA_TASK_ROOT: task,
        AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
        AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
        TZ: 'UTC',
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    let answer: Omit<Invocation, 'stderr'> | undefined;
    child.on('message', (m) => (answer = m as Omit<Invocation, 'stderr'>));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ ...(answer ?? { loadError: `The process ended (${signal ?? code}) without answering` }), stderr });
    });
    child.send({ handler: fn.handler, events, timeoutMs: fn.timeout * 1000 });
  });
}

/** Runs `work` over `items`, at most `size` at a time. */
export async function pool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
  return out;
}

/**
 * An API Gateway HTTP API (payload 2.0) event for an operation (`GET /api/v1/tickets/{ticketId}`), path
 * parameters filled with fresh ids, under the route key API Gateway gives it (`ANY /api/v1/tickets/{ticketId}`).
 */
export function httpEvent(
  operation: string,
  headers: Record<string, string>,
  request: { body?: string; params?: Record<string, string> } = {},
  routeKey = operation,
) {
  const [method, template] = operation.split(' ') as [string, string];
  const pathParameters: Record<string, string> = {};
  const rawPath = template.replace(
    /\{([^}+]+)\+?\}/g,
    (_, name: string) => (pathParameters[name] = request.params?.[name] ?? randomUUID()),
  );
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: '',
    headers: { host: 'bundle.test', 'user-agent': 'bundle-test', ...headers },
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'bundletest',
      domainName: 'bundle.test',
      domainPrefix: 'bundle',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bundle-test' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(request.body !== undefined ? { body: request.body } : {}),
    isBase64Encoded: false,
  };
}

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { inboundQueue } from '@helpdesk/core/areas/conversations/queue';
import { sesEventsQueue } from '@helpdesk/core/areas/emails/queue';
import { sesTags } from '@helpdesk/core/areas/emails/ses-events';
import { logAlertsQueue } from '@helpdesk/core/areas/logs/queue';
import { slaTimersQueue } from '@helpdesk/core/areas/sla/queue';
import { fullPath, routeKey } from '@helpdesk/core/kernel/api/route';
import { signToken } from '@helpdesk/core/kernel/links/signed';
import { inboundAddress } from '@helpdesk/core/kernel/mail/reply-address';
import { putObject } from '@helpdesk/core/kernel/ports/blob-store';
import { scanSmallTableOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { enqueue } from '@helpdesk/core/kernel/ports/queue';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/paths.js';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';
import {
  httpEvent,
  type Invocation,
  invoke,
  type LambdaFunction,
  pool,
  queueSources,
  readAssembly,
  removeScratch,
  resolveEnvironment,
  routesByFunction,
  scratchRoot,
  streamSources,
} from './lambda-runtime.js';

/**
 * Issue 20.5: what `cdk deploy` uploads must run. Synthesizes the app as `cdk synth` does, then runs
 * every function of the template from its asset folder the way Lambda does (see lambda-runtime.ts)
 * against this file's stand-ins: HTTP functions answer real authenticated API Gateway events, the
 * outbox relay a stream batch of the outbox items the API committed, and then queue consumers a batch
 * of the messages the relay put on their queues.
 */

const run = promisify(execFile);
const STAGE = 'dev';
/** The stage receives mail, so the bundled inbound consumer turns a received mail into a ticket. */
const INBOUND_DOMAIN = 'inbound.bundle.test';
/** The signing secret the Secrets Manager stub hands the bundles. */
const BUNDLE_SECRET = 'bundle-test-signing-secret-0123456789';
/** Synth bundles every function: ~20 s idle, minutes on a loaded 2-core machine. */
const SYNTH_TIMEOUT = 300_000;
/** Sixteen cold starts and their calls: under 10 s idle, a few minutes when CI's workers all run at once. */
const RUN_TIMEOUT = 300_000;
/** Child processes at once: the machine has 2 cores. */
const PARALLEL = 3;

// consumers: false, so the outbox items the API commits wait for the bundled relay, and its messages for the bundled consumers.
const app = await startTestApp({ consumers: false });

let outdir = '';
let scratch = '';
let bedrock: http2.Http2Server | undefined;
let secrets: http.Server | undefined;
let assembly: ReturnType<typeof readAssembly>;
let outcomes: Map<string, Invocation & { events: string[] }>;

/** Bedrock has no stand-in: answers InvokeModel (HTTP/2, as the SDK's Bedrock client speaks it) with a fixed embedding of the size asked for. */
async function startBedrockStub() {
  const server = http2.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { dimensions = 512 } = JSON.parse(body || '{}') as { dimensions?: number };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          embedding: Array.from({ length: dimensions }, (_, i) => (i % 7) / 7),
          inputTextTokenCount: 1,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Secrets Manager has no stand-in: answers GetSecretValue (JSON 1.1) with the signing secret's JSON, as the stack generates it. */
async function startSecretsStub() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const target = req.headers['x-amz-target'];
      res.writeHead(target === 'secretsmanager.GetSecretValue' ? 200 : 400, {
        'content-type': 'application/x-amz-json-1.1',
      });
      res.end(
        JSON.stringify({
          Name: `helpdesk/${STAGE}/signing-secret`,
          SecretString: JSON.stringify({ current: BUNDLE_SECRET }),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The Lambda runtime's own variables, and the stand-ins the local stack points the code at. */
function runtimeEnvironment() {
  return {
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    // Port 9 (discard) on loopback: an AWS call with no stand-in is refused here, never sent to the internet.
    AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: `http://127.0.0.1:${(bedrock!.address() as AddressInfo).port}`,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(secrets!.address() as AddressInfo).port}`,
    LOG_LEVEL: 'ERROR',
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(DYNAMODB|SQS|S3|SES)_ENDPOINT$/.test(k))),
  } as Record<string, string>;
}

/** Real traffic through the API (and SES's event path), so every queue holds the messages its producer writes. */
async function produceMessages(liveKey: string, ids: { accountId: string; projectId: string; slug: string }) {
  const call = async (p: string, body: unknown) => {
    const res = await app.call('POST', p, { key: liveKey, body });
    expect(res.status, `${p}: ${res.text}`).toBe(200);
    return res.body;
  };
  // An SLA policy: the ticket gets a clock, and its breach timer goes to the bundled sla-timers consumer. Its own
  // timers are within 15 minutes, so the relay makes them delayed messages (this test has no Scheduler).
  await call('/sla-policies', { name: 'Bundle', targets: { firstReply: 10 }, applyToOpen: true });
  const ticket = await call('/tickets', {
    subject: 'Bundle check',
    body: 'Hello',
    customer: { email: 'bundle@example.com' },
  });
  const detail = await app.call('GET', `/tickets/${ticket.id}`, { key: liveKey });
  await enqueue(slaTimersQueue, {
    projectId: ids.projectId,
    env: 'live',
    accountId: ids.accountId,
    ticketId: ticket.id,
    target: 'firstReply',
    kind: 'breach',
    dueAt: detail.body.sla.targets.firstReply.dueAt,
  });
  // A template send: the bundled email consumer renders it with Handlebars.
  const form = new FormData();
  form.set('file', new Blob(['{{!-- subject: Hi {{name}} --}}<p>Hello {{name}}</p>']), 'bundle-welcome.hbs');
  const imported = await app.call('POST', '/email-templates/import', { key: liveKey, rawBody: form });
  expect(imported.status, imported.text).toBe(200);
  const email = await call('/emails/send', {
    to: 'Bundle Check <bundle@example.com>',
    templateKey: 'bundle-welcome',
    variables: { name: 'Ann' },
  });
  await call('/logs', { events: [{ level: 'error', message: 'bundle check' }] });
  // An alert rule and a check: the bundled log-alerts consumer reads the rules and the issue.
  await call('/log-alert-rules', { name: 'Bundle', trigger: { type: 'new_issue' }, actions: { webhook: true } });
  await enqueue(logAlertsQueue, {
    accountId: ids.accountId,
    projectId: ids.projectId,
    env: 'live',
    issueId: crypto.randomUUID(),
    created: true,
    regressed: false,
    minutes: [new Date().toISOString().slice(0, 16)],
  });
  await call('/articles', { title: 'Bundle check', body: 'How to check bundles', status: 'published' });
  // A deleted ticket field with a value: the bundled field-cleanup consumer takes it off the ticket.
  await call('/ticket-fields', { key: 'bundle_note', label: 'Note', type: 'text' });
  await call('/tickets', {
    subject: 'Bundle field',
    body: 'Hello',
    customer: { email: 'bundle@example.com' },
    customFields: { bundle_note: 'x' },
  });
  const removed = await app.call('DELETE', '/ticket-fields/bundle_note', { key: liveKey });
  expect(removed.status, removed.text).toBe(200);
  const tags = sesTags({ ...ids, env: 'live', emailId: email.id });
  await enqueue(sesEventsQueue, {
    eventType: 'Delivery',
    mail: { messageId: `bundle-${email.id}`, tags: Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, [v]])) },
  });
  // A received mail to the project's address, as SES stores and announces it: the bundled inbound consumer opens a ticket.
  const to = inboundAddress({ id: ids.projectId, slug: ids.slug }, 'live', INBOUND_DOMAIN);
  await putObject(
    'inbound/bundle-check',
    `From: ann@example.com\r\nTo: ${to}\r\nSubject: Received by the bundle\r\nMessage-ID: <bundle-check@example.com>\r\n\r\nHello from a mail`,
    'message/rfc822',
  );
  await enqueue(inboundQueue, {
    notificationType: 'Received',
    mail: { messageId: 'bundle-check', source: 'ann@example.com' },
    receipt: {
      recipients: [to],
      action: { type: 'S3', bucketName: 'bundle', objectKey: 'inbound/bundle-check' },
    },
  });
  return { emailId: email.id as string };
}

/** A stream batch of every outbox item in the table, as the relay's event source mapping delivers it (NEW_IMAGE). */
async function streamEvent() {
  const items = await scanSmallTableOutbox();
  if (items.length === 0) throw new Error('No outbox items: produceMessages must commit side effects');
  return {
    Records: items.map((item, i) => ({
      eventID: String(i),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        Keys: marshall({ pk: item.pk, sk: item.sk }),
        NewImage: marshall(item),
        SequenceNumber: String(1000 + i),
        SizeBytes: 100,
        StreamViewType: 'NEW_IMAGE',
      },
      eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/helpdesk/stream/2026-01-01T00:00:00.000',
    })),
  };
}

/** The queue a consumer reads, found through the variable the template wires its URL into. */
async function sqsEventFor(
  fn: LambdaFunction,
  source: { queue: string; batchSize: number },
  local: Record<string, string>,
) {
  const name = Object.entries(fn.environment).find(
    ([k, v]) => k.startsWith('QUEUE_URL_') && (v as { Ref?: string }).Ref === source.queue,
  )?.[0];
  const url = name ? local[name] : undefined;
  if (!url) throw new Error(`${fn.logicalId}: no QUEUE_URL_* variable names its queue ${source.queue}`);
  const sqs = new SQSClient({
    endpoint: process.env.SQS_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const out = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: source.batchSize, WaitTimeSeconds: 1 }),
  );
  sqs.destroy();
  const messages = out.Messages ?? [];
  if (messages.length === 0)
    throw new Error(`${fn.logicalId}: nothing on ${name}; produceMessages must exercise every queue`);
  return {
    Records: messages.map((m) => ({
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'bundle-test',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${source.queue}`,
      awsRegion: 'us-east-1',
    })),
  };
}

/** A request of a route: its key, and a body and path values where it needs them. */
interface RouteCall {
  key: string;
  body?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });

/**
 * One write per endpoint group that has one, each with a body that succeeds: the write path (commit,
 * queue or outbox, S3, SES) runs in every bundle, not only its reads.
 */
function writes(ticketPageToken: string): Record<string, Omit<RouteCall, 'key'>> {
  const boundary = 'bundle-boundary';
  return {
    'POST /api/v1/tickets': json({
      subject: 'Written by a bundle',
      body: 'Hello',
      customer: { email: 'w@example.com' },
    }),
    'POST /api/v1/emails/send': json({ to: 'w@example.com', templateKey: 'bundle-welcome', variables: { name: 'W' } }),
    'POST /api/v1/email-templates/import': {
      body: [
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="written.hbs"',
        'Content-Type: text/x-handlebars-template',
        '',
        '<p>{{name}}</p>',
        `--${boundary}--`,
        '',
      ].join('\r\n'),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    },
    'POST /api/v1/articles': json({ title: 'Written by a bundle', body: 'Text', status: 'published' }),
    'POST /api/v1/logs': json({ events: [{ level: 'warn', message: 'written by a bundle' }] }),
    'POST /api/v1/customers': json({ email: 'written@example.com', name: 'W' }),
    'POST /api/v1/feedback/conversations': json({ customer: { email: 'f@example.com' }, body: 'Nice', rating: 5 }),
    'POST /api/v1/webhooks': json({ url: 'https://93.184.216.34/hook', events: ['ticket.created'] }),
    'POST /api/v1/public/tickets/{token}': {
      ...json({ body: 'Answered on the page' }),
      params: { token: ticketPageToken },
    },
    'POST /console/sign-in': {
      body: 'email=nobody%40example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
  };
}

/** The operations (`GET /api/v1/tickets`) API Gateway's route keys reach (`ANY /api/v1/tickets`), each with its key. */
function operationsOf(routeKeys: string[]): Map<string, string> {
  return new Map(
    routeKeys.flatMap((key) =>
      key.startsWith('ANY ')
        ? allRoutes.filter((r) => fullPath(r) === key.slice(4)).map((r) => [routeKey(r), key] as const)
        : [[key, key] as const],
    ),
  );
}

/** Every GET route without path parameters (cheap, read-only, answerable), and the group's write. */
function routesToCall(keys: string[], written: Record<string, Omit<RouteCall, 'key'>>) {
  const plainGets = keys.filter((k) => k.startsWith('GET ') && !k.includes('{'));
  const own = keys.filter((k) => k in written);
  return [...(plainGets.length || own.length ? plainGets : keys.slice(0, 1)), ...own];
}

beforeAll(async () => {
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  outdir = mkdtempSync(path.join(tmpdir(), 'helpdesk-cdkout-'));
  // `cdk synth` runs the app with the merged context in CDK_CONTEXT_JSON and the output folder in CDK_OUTDIR.
  await run(process.execPath, ['--import', 'tsx', 'infra/app.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJson.context, stage: STAGE, inboundDomain: INBOUND_DOMAIN }),
      CDK_OUTDIR: outdir,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  assembly = readAssembly(outdir, `Helpdesk-${STAGE}`);
}, SYNTH_TIMEOUT);

let tenant: Awaited<ReturnType<typeof createTenant>>;
let produced: { emailId: string };

beforeAll(async () => {
  tenant = await createTenant({ plan: 'pro' });
  const t = tenant;
  produced = await produceMessages(t.liveKey, {
    accountId: t.accountId,
    projectId: t.projects.main!.id,
    slug: t.projects.main!.slug,
  });
  // The page's ticket, and its link signed with the bundles' secret (the stub's), not this process's.
  const pageTicket = await app.call('POST', '/tickets', {
    key: t.liveKey,
    body: { subject: 'Page ticket', body: 'Hi', customer: { email: 'page@example.com' } },
  });
  setEnv({ SIGNING_SECRET: BUNDLE_SECRET });
  const token = signToken(['t', t.projects.main!.id, 'live', pageTicket.body.id]);
  setEnv({ SIGNING_SECRET: undefined });
  const written = writes(token);
  bedrock = await startBedrockStub();
  secrets = await startSecretsStub();
  const runtime = runtimeEnvironment();
  const routes = routesByFunction(assembly.resources);
  const sources = queueSources(assembly.resources);
  const streams = streamSources(assembly.resources);
  scratch = scratchRoot();
  const environmentOf = (fn: LambdaFunction) => ({
    ...resolveEnvironment(fn.environment, assembly.resources, process.env),
    ...runtime,
  });

  // The relay first: the consumers read what it puts on their queues.
  const relays = assembly.functions.filter((fn) => streams.has(fn.logicalId));
  const relayed = await pool(relays, PARALLEL, async (fn) => {
    const outcome = await invoke(scratch, fn, environmentOf(fn), [await streamEvent()]);
    return [fn.logicalId, { ...outcome, events: ['DynamoDB stream'] as string[] }] as const;
  });
  const results = await pool(
    assembly.functions.filter((fn) => !streams.has(fn.logicalId)),
    PARALLEL,
    async (fn) => {
      const env = environmentOf(fn);
      const source = sources.get(fn.logicalId);
      const operations = operationsOf(routes.get(fn.logicalId) ?? []);
      const keys = source ? [] : routesToCall([...operations.keys()], written);
      const events = source
        ? [await sqsEventFor(fn, source, env)]
        : keys.map((k) =>
            httpEvent(
              k,
              { authorization: `Bearer ${t.liveKey}`, 'service-project': 'main', ...written[k]?.headers },
              written[k] ?? {},
              operations.get(k),
            ),
          );
      return [
        fn.logicalId,
        { ...(await invoke(scratch, fn, env, events)), events: source ? [`SQS ${source.queue}`] : keys },
      ] as const;
    },
  );
  outcomes = new Map([...relayed, ...results]);
}, RUN_TIMEOUT);

afterAll(() => {
  bedrock?.close();
  secrets?.close();
  if (scratch) removeScratch(scratch);
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('every Lambda bundle in cdk.out, run the way Lambda runs it', () => {
  it('is reached by a route, a queue or the table stream, and loads its handler from a read-only copy of its folder', () => {
    const routes = routesByFunction(assembly.resources);
    const sources = queueSources(assembly.resources);
    const streams = streamSources(assembly.resources);
    expect(assembly.functions.length).toBeGreaterThan(10);
    expect(streams.size).toBe(1);
    for (const fn of assembly.functions) {
      const reached = routes.has(fn.logicalId) || sources.has(fn.logicalId) || streams.has(fn.logicalId);
      expect(reached, `${fn.logicalId} has no route, queue or stream`).toBe(true);
      const outcome = outcomes.get(fn.logicalId)!;
      expect(
        outcome.loadError,
        `${fn.logicalId} did not load:\n${outcome.loadError}\n${outcome.stderr}`,
      ).toBeUndefined();
    }
  });

  it('answers each HTTP route it was given with a response, never a 5xx, and at least one 2xx per function', () => {
    const sources = queueSources(assembly.resources);
    const streams = streamSources(assembly.resources);
    for (const fn of assembly.functions.filter((f) => !sources.has(f.logicalId) && !streams.has(f.logicalId))) {
      const { results = [], events, stderr } = outcomes.get(fn.logicalId)!;
      expect(results).toHaveLength(events.length);
      results.forEach(({ result, error }, i) => {
        const label = `${fn.logicalId} ${events[i]}`;
        expect(error, `${label} threw:\n${error}\n${stderr}`).toBeUndefined();
        expect(result?.statusCode, `${label}: ${JSON.stringify(result)?.slice(0, 500)}`).toBeLessThan(500);
        expect(typeof result.body, label).toBe('string');
      });
      if (events.some((e) => e.startsWith('GET ') && !e.includes('{'))) {
        expect(
          results.some(({ result }) => result.statusCode < 300),
          `${fn.logicalId}: no 2xx among ${events.join(', ')}`,
        ).toBe(true);
      }
    }
  });

  it('serves the files shipped beside the docs bundle (the Redoc script)', () => {
    const docs = [...outcomes.values()].find((o) => o.events.includes('GET /docs/redoc.standalone.js'));
    expect(docs, 'no function serves GET /docs/redoc.standalone.js').toBeDefined();
    const script = docs!.results![docs!.events.indexOf('GET /docs/redoc.standalone.js')]!.result;
    expect(script.statusCode).toBe(200);
    expect(script.body.length).toBeGreaterThan(100_000);
  });

  it('runs one write of every group that has one, successfully', () => {
    const written = Object.keys(writes('x'));
    const ran = [...outcomes.values()].flatMap((o) =>
      o.events.map((e, i) => ({
        event: e,
        status: o.results?.[i]?.result?.statusCode,
        body: o.results?.[i]?.result?.body,
      })),
    );
    for (const route of written) {
      const call = ran.find((r) => r.event === route);
      expect(call, `${route} was not called`).toBeDefined();
      expect(call?.status, `${route}: ${String(call?.body).slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(call?.status, `${route}: ${String(call?.body).slice(0, 300)}`).toBeLessThan(300);
    }
  });

  it('renders a template send in the bundled email consumer, and opens a ticket from mail in the bundled inbound consumer', async () => {
    const email = await app.call('GET', `/emails/${produced.emailId}`, { key: tenant.liveKey });
    expect(email.body.subject).toBe('Hi Ann');
    expect(['sent', 'delivered']).toContain(email.body.status);
    const tickets = await app.call('GET', '/tickets', {
      key: tenant.liveKey,
      query: { search: 'Received by the bundle' },
    });
    expect(tickets.body.tickets.map((r: { subject: string }) => r.subject)).toContain('Received by the bundle');
  });

  it('relays the committed outbox items in the bundled relay, and processes a batch of them on each queue consumer with no failed item', () => {
    const sources = queueSources(assembly.resources);
    expect(sources.size).toBeGreaterThan(0);
    for (const fnId of [...streamSources(assembly.resources).keys(), ...sources.keys()]) {
      const { results = [], stderr } = outcomes.get(fnId)!;
      const [{ result, error } = {}] = results;
      expect(error, `${fnId} threw:\n${error}\n${stderr}`).toBeUndefined();
      expect(result, `${fnId}: ${stderr}`).toEqual({ batchItemFailures: [] });
    }
  });
});

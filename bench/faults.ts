/**
 * `npm run bench:faults [-- --cycles 5 --seconds 20 --workers 4]`: the promises of issue 28 under
 * failure. Runs `npm start`'s stack as a child process on its own port and data folder, with an SES
 * stand-in and webhook receivers of its own (they outlive the stack, as SES and a customer's endpoint
 * do), and a workload of tickets, public replies and notes, customer answers over SMTP, transactional
 * and scheduled email, log ingestion and article publishing. Each cycle starts the stack with `--faults`
 * (throttling, 5xx, latency, resets, lost answers and timeouts on DynamoDB, SQS, S3, SES and SMTP, and a
 * kill right after some transactions commit) and SIGKILLs it at a random moment if no kill point did;
 * the next cycle restarts it on the same data. A last start without faults lets everything drain, then
 * every promise is checked:
 * - every write answered 2xx is stored (tickets, their messages, emails, articles);
 * - every mail a committed write promised (replies, sends, scheduled sends) reached SES, once;
 * - every webhook event a committed write promised reached its endpoint; duplicates carry one id;
 * - the API answered 503 (never another 5xx) while a dependency failed.
 * Prints a table per cycle, the drain time, and as its last line exactly
 * `faults: <N> operations, <L> lost, <D> duplicated, <E> 5xx`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import * as sesLocalModule from 'aws-ses-v2-local';
import { REPO_ROOT } from '../infra/paths.js';
import { freePort } from '../packages/local/src/ports.js';
import { readStackFile, type StackFile, stackFilePath } from '../packages/local/src/stack-file.js';
import { sendSmtp } from './smtp-client.js';
import { progress } from './stack.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const CYCLES = arg('cycles', 5);
const SECONDS = arg('seconds', 20);
const WORKERS = arg('workers', 4);
/** The faults of every cycle (README, Faults): moderate rates, so work proceeds while failing often. */
const SPEC = [
  'dynamodb:throttle=3%,5xx=1%,reset=1%,lost=1%,timeout=0.2%,latency=30ms@10%,kill=TransactWriteItems@0.1%',
  'sqs:throttle=3%,5xx=3%,reset=1%,lost=1%,latency=20ms@10%',
  's3:throttle=3%,5xx=2%',
  // No `lost` for SES: SendEmail takes no idempotency key, so a lost answer is a mail the SDK sends again.
  'ses:throttle=5%,5xx=3%',
  'smtp:throttle=10%,5xx=5%,reset=5%',
].join(';');
/** How the webhook endpoints answer: some fail, some are slow. */
const ENDPOINT_FAILS = 0.15;
const DRAIN_TIMEOUT_MS = 240_000;

const run = promisify(execFile);
const token = () => `tok${randomBytes(6).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- What stays up while the stack dies: SES and the webhook endpoint ---------------------------------

const sesServer = ((sesLocalModule as unknown as { default: { default?: unknown } }).default.default ??
  (sesLocalModule as unknown as { default: unknown }).default) as (c: {
  host: string;
  port: number;
}) => Promise<http.Server>;
const sesPort = await freePort();
const ses = await sesServer({ host: '127.0.0.1', port: sesPort });
const sesUrl = `http://127.0.0.1:${sesPort}`;

interface StoredMail {
  messageId: string;
  subject: string;
  replyTo?: string[];
  destination: { to: string[] };
  body: { html?: string; text?: string };
}
const mails = async (): Promise<StoredMail[]> =>
  ((await (await fetch(`${sesUrl}/store`)).json()) as { emails: StoredMail[] }).emails;

interface Delivery {
  id: string;
  event: string;
  data: Record<string, any>;
}
const deliveries: Delivery[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (Math.random() < ENDPOINT_FAILS) return res.writeHead(500).end('flaky');
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = String(req.headers['webhook-id'] ?? req.headers['x-service-delivery'] ?? '');
      deliveries.push({ id, event: body.event ?? body.type, data: body.data ?? {} });
    } catch {
      /* not JSON: counted nowhere */
    }
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// --- The stack as a child process ----------------------------------------------------------------------

const port = await freePort();
const dataDir = path.join(REPO_ROOT, '.local', String(port));
rmSync(dataDir, { recursive: true, force: true });
rmSync(stackFilePath(port), { force: true });
let child: ChildProcess | undefined;
let exited: Promise<void> = Promise.resolve();

async function boot(faults?: string): Promise<StackFile> {
  const args = [
    '--import',
    'tsx',
    'packages/local/src/main.ts',
    '--ses',
    sesUrl,
    ...(faults ? ['--faults', faults] : []),
  ];
  child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'CRITICAL',
      // Failed webhook deliveries retry after seconds, not minutes, so the bench drains in minutes.
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stdio: 'ignore',
  });
  const proc = child;
  exited = new Promise((resolve) => proc.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const started = readStackFile(port);
    if (started && started.pid === proc.pid) {
      const up = await fetch(`${started.apiUrl}/projects`).catch(() => undefined);
      if (up) return started;
    }
    if (proc.exitCode !== null || proc.signalCode !== null) {
      // A kill point during start-up: start again.
      return boot(faults);
    }
    if (Date.now() > deadline) throw new Error('The stack did not start within 2 minutes');
    await sleep(250);
  }
}
const alive = () => !!child && child.exitCode === null && child.signalCode === null;
async function kill(signal: NodeJS.Signals = 'SIGKILL') {
  if (alive()) child?.kill(signal);
  await exited;
}

// --- Setup, without faults ------------------------------------------------------------------------------

progress(`starting the stack on port ${port} (data in .local/${port})`);
let stack = await boot();
const admin = async (...args: string[]) =>
  JSON.parse(
    (
      await run(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, PORT: String(port), TABLE_NAME: '', LOG_LEVEL: 'CRITICAL' },
      })
    ).stdout,
  );
const account = await admin('account:create', '--name', 'Faults bench', '--plan', 'business');
await admin('project:create', '--account', account.id, '--slug', 'bench', '--name', 'Bench');
// A rate limit far above the workload's pace: the bench measures faults, not the limiter.
const { key } = await admin('key:create', '--account', account.id, '--env', 'live', '--rate-limit', '100000');

interface Answer {
  status: number;
  body: any;
}
/** One API call; a connection that fails (the stack is down) is status 0. */
async function call(method: string, p: string, body?: unknown): Promise<Answer> {
  try {
    const res = await fetch(`${stack.apiUrl}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        'service-project': 'bench',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(40_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* keep the text */
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: undefined };
  }
}

const hook = await call('POST', '/webhooks', { url: hookUrl, events: ['ticket.created', 'message.received'] });
if (hook.status !== 200) throw new Error(`webhook registration: ${hook.status} ${JSON.stringify(hook.body)}`);
const projects = await call('GET', '/projects');
const inboundAddress: string = projects.body.projects?.[0]?.inboundAddress ?? '';

// --- The workload -----------------------------------------------------------------------------------------

type Kind = 'ticket' | 'reply' | 'note' | 'email' | 'scheduled' | 'logs' | 'article' | 'answer';
interface Op {
  kind: Kind;
  cycle: number;
  status: number;
  token: string;
  id?: string;
  ticketId?: string;
}
const ops: Op[] = [];
const tickets: { id: string; email: string }[] = [];
const WEIGHTS: [Kind, number][] = [
  ['ticket', 28],
  ['reply', 20],
  ['note', 8],
  ['email', 14],
  ['scheduled', 5],
  ['logs', 10],
  ['article', 5],
  ['answer', 10],
];
const pick = (): Kind => {
  let roll = Math.random() * WEIGHTS.reduce((s, [, w]) => s + w, 0);
  for (const [kind, w] of WEIGHTS) if ((roll -= w) < 0) return kind;
  return 'ticket';
};
const anyTicket = () => tickets[Math.floor(Math.random() * tickets.length)];

/** Sends a customer's answer to a reply address over SMTP, as a mail client would (one try). */
const smtpSend = (to: string, from: string, subject: string, text: string) =>
  sendSmtp(
    { host: stack.smtpHost, port: stack.smtpPort },
    { from, to },
    [
      `From: ${from}`,
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <${token()}@bench.example>`,
      'X-Local-Authentication: pass',
      '',
      text,
    ].join('\r\n'),
  );

/** The reply address a ticket's customer answers to: the Reply-To of a mail the ticket sent. */
const replyAddresses = new Map<string, string>();

async function operate(kind: Kind, cycle: number): Promise<Op> {
  const t = token();
  const op: Op = { kind, cycle, status: 0, token: t };
  const ticket = anyTicket();
  switch (kind) {
    case 'ticket': {
      const email = `c-${t}@example.com`;
      const res = await call('POST', '/tickets', { subject: `Help ${t}`, body: `Body ${t}`, customer: { email } });
      op.status = res.status;
      op.id = res.body?.id;
      if (res.status === 200) tickets.push({ id: res.body.id, email });
      break;
    }
    case 'reply':
    case 'note': {
      if (!ticket) return operate('ticket', cycle);
      const res = await call('POST', `/tickets/${ticket.id}/messages`, {
        body: `Reply ${t}`,
        ...(kind === 'note' ? { visibility: 'internal' } : {}),
      });
      Object.assign(op, { status: res.status, id: res.body?.id, ticketId: ticket.id });
      break;
    }
    case 'email':
    case 'scheduled': {
      const res = await call('POST', '/emails/send', {
        to: `m-${t}@example.com`,
        subject: `Mail ${t}`,
        body: `Hello ${t}`,
        ...(kind === 'scheduled'
          ? { scheduledAt: new Date(Date.now() + 3_000 + Math.random() * 5_000).toISOString() }
          : {}),
      });
      Object.assign(op, { status: res.status, id: res.body?.id });
      break;
    }
    case 'logs': {
      const res = await call('POST', '/logs', { events: [{ level: 'error', message: `Failure ${t} in worker` }] });
      op.status = res.status;
      break;
    }
    case 'article': {
      const res = await call('POST', '/articles', { title: `Article ${t}`, body: `How to ${t}`, status: 'published' });
      Object.assign(op, { status: res.status, id: res.body?.id });
      break;
    }
    case 'answer': {
      const known = [...replyAddresses.entries()];
      if (!known.length) return operate('reply', cycle);
      const [ticketId, address] = known[Math.floor(Math.random() * known.length)]!;
      const customer = tickets.find((x) => x.id === ticketId)!;
      const sent = await smtpSend(address, customer.email, `Re: ${t}`, `Answer ${t}`);
      Object.assign(op, { status: sent ? 250 : 0, ticketId });
      break;
    }
  }
  return op;
}

/** Learns reply addresses from the mails the stack sent (a ticket's reply mail carries its own). */
async function learnReplyAddresses() {
  for (const mail of await mails().catch(() => [])) {
    const to = mail.destination.to[0] ?? '';
    const ticket = tickets.find((x) => to.includes(x.email));
    const address = mail.replyTo?.[0]?.match(/<([^>]+)>/)?.[1] ?? mail.replyTo?.[0];
    if (ticket && address && address !== inboundAddress) replyAddresses.set(ticket.id, address);
  }
}

// --- Cycles -------------------------------------------------------------------------------------------------

const cycles: {
  cycle: number;
  ops: number;
  accepted: number;
  s4xx: number;
  s503: number;
  s5xx: number;
  down: number;
  ended: string;
}[] = [];
for (let cycle = 1; cycle <= CYCLES; cycle++) {
  if (!alive()) stack = await boot(SPEC);
  else {
    await kill();
    stack = await boot(SPEC);
  }
  progress(`cycle ${cycle}/${CYCLES}: faults on, ${SECONDS} s of work`);
  const killAt = Date.now() + (0.4 + Math.random() * 0.6) * SECONDS * 1000;
  const until = Date.now() + SECONDS * 1000;
  let ended = 'time';
  const before = ops.length;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < until && alive()) {
        if (Date.now() > killAt && alive()) {
          ended = 'SIGKILL';
          await kill();
          break;
        }
        ops.push(await operate(pick(), cycle));
      }
    }),
  );
  if (!alive() && ended === 'time') ended = 'kill point';
  await learnReplyAddresses();
  const mine = ops.slice(before);
  cycles.push({
    cycle,
    ops: mine.length,
    accepted: mine.filter((o) => o.status >= 200 && o.status < 300).length,
    s4xx: mine.filter((o) => o.status >= 400 && o.status < 500).length,
    s503: mine.filter((o) => o.status === 503).length,
    s5xx: mine.filter((o) => o.status >= 500 && o.status !== 503).length,
    down: mine.filter((o) => o.status === 0).length,
    ended,
  });
}
await kill();

// --- Drain without faults, then check every promise ------------------------------------------------------------

progress('restarting without faults; waiting for every promise');
stack = await boot();
const drainStart = Date.now();
const accepted = ops.filter((o) => (o.status >= 200 && o.status < 300) || o.status === 250);

interface Verdict {
  lost: string[];
  duplicated: string[];
}
async function check(): Promise<Verdict> {
  const lost: string[] = [];
  const duplicated: string[] = [];
  const all = await mails();
  const mailsWith = (t: string) =>
    all.filter((m) => `${m.subject} ${m.body.text ?? ''} ${m.body.html ?? ''}`.includes(t));
  const events = (event: string, match: (d: Delivery) => boolean) =>
    deliveries.filter((d) => d.event === event && match(d));
  const threads = new Map<string, string>();
  const thread = async (ticketId: string) => {
    if (!threads.has(ticketId)) {
      const res = await call('GET', `/tickets/${ticketId}`);
      threads.set(ticketId, res.status === 200 ? JSON.stringify(res.body) : '');
    }
    return threads.get(ticketId)!;
  };
  for (const op of accepted) {
    const label = `${op.kind} ${op.token}`;
    if (op.kind === 'ticket') {
      if (!(await thread(op.id!)).includes(op.token)) lost.push(`${label}: not stored`);
      const created = events('ticket.created', (d) => d.data.ticket?.id === op.id);
      if (!created.length) lost.push(`${label}: no ticket.created`);
      if (new Set(created.map((d) => d.id)).size > 1) duplicated.push(`${label}: ticket.created with several ids`);
    }
    if (op.kind === 'reply' || op.kind === 'note' || op.kind === 'answer') {
      const stored = (await thread(op.ticketId!)).includes(op.token);
      if (!stored) lost.push(`${label}: message not stored`);
      const received = events('message.received', (d) => JSON.stringify(d.data.message ?? '').includes(op.token));
      if (stored && !received.length) lost.push(`${label}: no message.received`);
      if (new Set(received.map((d) => d.id)).size > 1) duplicated.push(`${label}: message.received with several ids`);
      if (op.kind === 'reply') {
        const sent = mailsWith(op.token);
        if (!sent.length) lost.push(`${label}: reply mail never sent`);
        if (sent.length > 1) duplicated.push(`${label}: reply mail sent ${sent.length} times`);
      }
      if (op.kind === 'note' && mailsWith(op.token).length) duplicated.push(`${label}: an internal note was mailed`);
    }
    if (op.kind === 'email' || op.kind === 'scheduled') {
      const row = await call('GET', `/emails/${op.id}`);
      if (row.status !== 200) lost.push(`${label}: email not stored`);
      const sent = mailsWith(op.token);
      if (!sent.length) lost.push(`${label}: never sent`);
      if (sent.length > 1) duplicated.push(`${label}: sent ${sent.length} times`);
    }
    if (op.kind === 'article') {
      const row = await call('GET', `/articles/${op.id}`);
      if (row.status !== 200) lost.push(`${label}: article not stored`);
    }
  }
  return { lost, duplicated };
}

let verdict = await check();
while (verdict.lost.length && Date.now() - drainStart < DRAIN_TIMEOUT_MS) {
  await sleep(3_000);
  verdict = await check();
}
const drainSeconds = (Date.now() - drainStart) / 1000;
const mailCount = (await mails()).length;
// The last stop is a clean one: it takes its DynamoDB Local with it (the killed ones were stopped at each restart).
await kill('SIGTERM');
ses.close();
receiver.close();
rmSync(dataDir, { recursive: true, force: true });

// --- Report ----------------------------------------------------------------------------------------------------

const rows = cycles.map(
  (c) => `| ${c.cycle} | ${c.ops} | ${c.accepted} | ${c.s4xx} | ${c.s503} | ${c.s5xx} | ${c.down} | ${c.ended} |`,
);
console.log('\n| cycle | operations | accepted | 4xx | 503 | other 5xx | stack down | ended by |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
const byKind = new Map<Kind, number>();
for (const op of accepted) byKind.set(op.kind, (byKind.get(op.kind) ?? 0) + 1);
const refused = new Map<string, number>();
for (const op of ops.filter((o) => o.status >= 400 && o.status < 500))
  refused.set(`${op.kind} ${op.status}`, (refused.get(`${op.kind} ${op.status}`) ?? 0) + 1);
console.log(`4xx answers: ${[...refused].map(([k, n]) => `${k}: ${n}`).join(', ') || 'none'}`);
console.log(`\naccepted by kind: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
console.log(`webhook deliveries received: ${deliveries.length}; mails at SES: ${mailCount}`);
console.log(`drained in ${drainSeconds.toFixed(1)} s after the faults stopped`);
for (const line of [...verdict.lost, ...verdict.duplicated].slice(0, 20)) console.log(`  ${line}`);
const errors5xx = cycles.reduce((s, c) => s + c.s5xx, 0);
console.log(
  `faults: ${ops.length} operations, ${verdict.lost.length} lost, ${verdict.duplicated.length} duplicated, ${errors5xx} 5xx`,
);
process.exit(0);

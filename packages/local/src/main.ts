import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingJavaError, requireJava } from './java.js';

// First, before the stand-ins' modules load: a machine without Java is told at once, without a stack trace.
try {
  requireJava();
} catch (err) {
  if (!(err instanceof MissingJavaError)) throw err;
  console.error(err.message);
  process.exit(1);
}

const { startEmulators } = await import('./emulators.js');
const { handlerEnvironment, provision } = await import('./provision.js');
const { localDir, removeStackFile, writeStackFile } = await import('./stack-file.js');

/**
 * `npm start`: the whole service on this machine. `--memory` keeps nothing; otherwise DynamoDB Local
 * and S3 persist under .local/<PORT>/.
 */
const port = Number(process.env.PORT ?? 3000);
const memory = process.argv.includes('--memory');
/** `--<name> <value>` from the command line. */
const option = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
};
const { FaultSpecError, parseFaultSpec } = await import('./faults/spec.js');
let faults: ReturnType<typeof parseFaultSpec> | undefined;
try {
  const spec = option('faults');
  faults = spec === undefined ? undefined : parseFaultSpec(spec);
} catch (err) {
  if (!(err instanceof FaultSpecError)) throw err;
  console.error(`--faults: ${err.message} (README, Faults)`);
  process.exit(2);
}
const dataDir = memory ? undefined : join(localDir, String(port));
const demoFile = dataDir ? join(dataDir, 'demo.json') : undefined;

// `--ses <url>`: an SES stand-in outside this process (bench:faults keeps its mail across crashes of the stack).
mkdirSync(localDir, { recursive: true });
const emulators = await startEmulators({
  dataDir,
  sesEndpoint: option('ses'),
  pidFile: join(localDir, `dynamodb-${port}.pid`),
});
const { startFaultProxies } = await import('./faults/proxies.js');
// The stand-ins behind fault-injecting proxies when `--faults` names them; provisioning goes direct.
const proxies = await startFaultProxies(emulators.endpoints, faults ?? {}, () => process.kill(process.pid, 'SIGKILL'));
const endpoints = proxies.endpoints;
const resources = await provision(emulators.endpoints, {
  tableName: 'helpdesk',
  queuePrefix: `helpdesk-${port}`,
  bucket: 'helpdesk-attachments',
});
const apiBase = `http://127.0.0.1:${port}`;
Object.assign(
  process.env,
  handlerEnvironment(endpoints, resources, { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? apiBase }),
);
process.env.LOG_LEVEL ??= 'WARN';

const { startApp } = await import('./app.js');
const { env } = await import('@helpdesk/core/kernel/config');
const { seedDemo } = await import('./seed.js');

const previous =
  demoFile && existsSync(demoFile)
    ? (JSON.parse(readFileSync(demoFile, 'utf8')) as { accountId: string }).accountId
    : undefined;
const demo = await seedDemo(previous);
if (demoFile && dataDir) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(demoFile, JSON.stringify({ accountId: demo.accountId }) + '\n');
}

const app = await startApp({
  endpoints,
  resources,
  port,
  scheduleEveryMs: 1_000,
  sweepUploadsEveryMs: 10 * 60_000,
  sesSendEventsEveryMs: 1_000,
});
const smtp = await proxies.smtp(app.smtp);
proxies.arm();
writeStackFile(port, {
  pid: process.pid,
  apiUrl: app.apiUrl,
  sesUrl: emulators.endpoints.ses,
  dynamodbEndpoint: emulators.endpoints.dynamodb,
  s3Endpoint: emulators.endpoints.s3,
  sqsEndpoint: emulators.endpoints.sqs,
  tableName: resources.tableName,
  bucket: resources.bucket,
  queueUrls: resources.queueUrls,
  dlqUrls: resources.dlqUrls,
  demoAccountId: demo.accountId,
  ...smtp,
  inboundDomain: env.inboundDomain ?? '',
});

console.log(`
Helpdesk API running locally${memory ? ' (in memory)' : ''}
  API          ${app.apiUrl}
  API docs     ${app.url}/docs
  Mail viewer  ${emulators.endpoints.ses}
  Inbound mail smtp://${smtp.smtpHost}:${smtp.smtpPort} (for @${env.inboundDomain}; GET /projects shows each project's address)
  Console      ${app.url}/console (sign in as ${demo.adminEmail}; the link arrives in the mail viewer)
  Demo account ${demo.accountId} (plan pro, projects demo and docs)
  Live key     ${demo.liveKey}
  Sandbox key  ${demo.sandboxKey}

  curl -s ${app.apiUrl}/projects -H "Authorization: Bearer ${demo.liveKey}"
${faults ? `\n  Faults       ${option('faults')}\n` : ''}`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  removeStackFile(port);
  await app.stop().catch(() => undefined);
  if (faults) console.log('Faults injected:', JSON.stringify(proxies.counts()));
  await proxies.close();
  await emulators.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

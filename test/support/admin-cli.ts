import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { freePort } from '../../packages/local/src/ports.js';
import { removeStackFile, writeStackFile } from '../../packages/local/src/stack-file.js';
import type { TestApp } from './app.js';
import { testResources } from './env.js';

const run = promisify(execFile);

/**
 * The admin CLI as an operator runs it against this file's stand-ins: a stack file on a free PORT
 * names them (as `npm start` writes one), removed after the file. Answers a runner of CLI commands.
 */
export async function adminCli(app: TestApp) {
  const port = await freePort();
  writeStackFile(port, {
    pid: process.pid,
    apiUrl: app.apiUrl,
    sesUrl: '',
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT as string,
    s3Endpoint: '',
    sqsEndpoint: process.env.SQS_ENDPOINT as string,
    tableName: testResources().tableName,
    bucket: testResources().bucket,
    queueUrls: testResources().queueUrls,
    dlqUrls: testResources().dlqUrls,
    demoAccountId: '',
    smtpHost: app.smtp.host,
    smtpPort: app.smtp.port,
    inboundDomain: 'inbound.helpdesk.local',
  });
  afterAll(() => removeStackFile(port));
  /** Runs `admin <args>`: its JSON answer (code 0), or its exit code and stderr. */
  return async (...args: string[]) => {
    const env = { ...process.env, PORT: String(port), TABLE_NAME: '' };
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', ...args], { env });
      return { code: 0, json: JSON.parse(stdout), stderr: '' };
    } catch (err) {
      const e = err as { code: number; stderr: string };
      return { code: e.code, json: undefined, stderr: e.stderr };
    }
  };
}

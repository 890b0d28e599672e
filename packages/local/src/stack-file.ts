import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './handlers.js';

/** What a running local stack publishes for the admin CLI and for people: `.local/stack-<PORT>.json`. */
export interface StackFile {
  pid: number;
  apiUrl: string;
  sesUrl: string;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  sqsEndpoint: string;
  tableName: string;
  bucket: string;
  queueUrls: Record<string, string>;
  /** Each queue's dead-letter queue (`admin dlq:list`, `dlq:redrive`). */
  dlqUrls: Record<string, string>;
  demoAccountId: string;
  /** The SMTP stand-in for SES receiving (mail for `inboundDomain`). */
  smtpHost: string;
  smtpPort: number;
  inboundDomain: string;
}

export const localDir = join(projectRoot, '.local');
export const stackFilePath = (port: number) => join(localDir, `stack-${port}.json`);

export function writeStackFile(port: number, data: StackFile) {
  mkdirSync(localDir, { recursive: true });
  writeFileSync(stackFilePath(port), JSON.stringify(data, null, 2) + '\n');
}

export function readStackFile(port: number): StackFile | undefined {
  const path = stackFilePath(port);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as StackFile) : undefined;
}

export const removeStackFile = (port: number) => rmSync(stackFilePath(port), { force: true });

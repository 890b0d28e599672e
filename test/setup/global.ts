import type { TestProject } from 'vitest/node';
import type { Endpoints } from '../../packages/local/src/emulators.js';
import { requireJava } from '../../packages/local/src/java.js';

declare module 'vitest' {
  export interface ProvidedContext {
    endpoints: Endpoints;
    /** One DynamoDB Local per worker, by VITEST_POOL_ID - 1 (test/setup/per-file.ts). */
    dynamodbEndpoints: string[];
  }
}

/**
 * One set of stand-ins (DynamoDB Local in memory, SQS, S3, SES) for the whole run, with a DynamoDB
 * Local per worker: one instance answers from a single SQLite thread, and each stream call (every
 * write, every relay pump) scans the stream records of all its tables, so with one for the suite the
 * workers queued on it and it slowed as the run went on. Each test file gets its own table and queues.
 */
export default async function setup(project: TestProject) {
  // Before the stand-ins' modules load: without Java the run stops at once with what to install.
  requireJava();
  // The suite's DynamoDB Locals live for one run, most of it warming up: the C1 compiler alone and the serial
  // collector (no optimizing recompiles, no concurrent GC threads on a 2-core box) took three heavy test
  // files from 249 to 167 s of CPU. Spawned JVMs read the variable; `npm start`'s long-lived one keeps the defaults.
  process.env.JAVA_TOOL_OPTIONS = [process.env.JAVA_TOOL_OPTIONS, '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC']
    .filter(Boolean)
    .join(' ');
  const { startDynamoDbLocal, startEmulators } = await import('../../packages/local/src/emulators.js');
  const workers = Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
  const [emulators, ...more] = await Promise.all([
    startEmulators(),
    ...Array.from({ length: workers - 1 }, () => startDynamoDbLocal()),
  ]);
  project.provide('endpoints', emulators.endpoints);
  project.provide('dynamodbEndpoints', [emulators.endpoints.dynamodb, ...more.map((d) => d.endpoint)]);
  return async () => {
    for (const d of more) d.stop();
    await emulators.stop();
  };
}

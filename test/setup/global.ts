import type { TestProject } from 'vitest/node';
import type { Endpoints } from '../../packages/local/src/emulators.js';
import { requireJava } from '../../packages/local/src/java.js';

declare module 'vitest' {
  export interface ProvidedContext {
    endpoints: Endpoints;
  }
}

/** One set of stand-ins (DynamoDB Local in memory, SQS, S3, SES) for the whole run; each test file gets its own table and queues. */
export default async function setup(project: TestProject) {
  // Before the stand-ins' modules load: without Java the run stops at once with what to install.
  requireJava();
  const { startEmulators } = await import('../../packages/local/src/emulators.js');
  const emulators = await startEmulators();
  project.provide('endpoints', emulators.endpoints);
  return () => emulators.stop();
}

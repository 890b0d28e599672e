import type { TestProject } from 'vitest/node';
import { startEmulators, type Endpoints } from '../../packages/local/src/emulators.js';

declare module 'vitest' {
  export interface ProvidedContext {
    endpoints: Endpoints;
  }
}

/** One set of stand-ins (DynamoDB Local in memory, SQS, S3, SES) for the whole run; each test file gets its own table and queues. */
export default async function setup(project: TestProject) {
  const emulators = await startEmulators();
  project.provide('endpoints', emulators.endpoints);
  return () => emulators.stop();
}

import { reloadConfig } from '@helpdesk/core/kernel/config';
import type { Endpoints } from '../../packages/local/src/emulators.js';
import type { Resources } from '../../packages/local/src/provision.js';

/** The table, queues and bucket this test file was given by test/setup/per-file.ts. */
export const testResources = () => (globalThis as { __testResources?: Resources }).__testResources!;
/** The stand-ins this test file uses (its worker's DynamoDB Local: test/setup/per-file.ts). */
export const testEndpoints = () => (globalThis as { __testEndpoints?: Endpoints }).__testEndpoints!;

/**
 * Changes settings for a test: sets each value (removes it for undefined, which process.env would
 * store as the string "undefined") and has the configuration parsed again on next use.
 */
export function setEnv(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
}

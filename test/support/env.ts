import { inject } from 'vitest';
import type { Resources } from '../../packages/local/src/provision.js';

/** The table, queues and bucket this test file was given by test/setup/per-file.ts. */
export const testResources = () => (globalThis as { __testResources?: Resources }).__testResources!;
export const testEndpoints = () => inject('endpoints');

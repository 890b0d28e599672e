process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { defineConfig } from 'vitest/config';

/**
 * Tests are told apart by name: `*.unit.test.ts` need no stand-in (pure functions, the route table,
 * the catalog, adapters against aws-sdk-client-mock) and run in seconds without DynamoDB Local or any
 * emulator (`npm run test:unit`); every other test is `integration`: one set of stand-ins per run, a
 * table and queues per file.
 */
const UNIT = ['test/**/*.unit.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 3,
    // Two minutes, as a hang guard only: the whole suite shares two cores and one DynamoDB Local, and a
    // test that drains queues several times has passed a minute under that load (alone: a few seconds).
    testTimeout: 120_000,
    hookTimeout: 60_000,
    projects: [
      // SDK clients (mocked where a test talks to one) still need a region to resolve.
      { extends: true, test: { name: 'unit', include: UNIT, env: { AWS_REGION: 'us-east-1' } } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: UNIT,
          globalSetup: ['test/setup/global.ts'],
          setupFiles: ['test/setup/per-file.ts'],
        },
      },
    ],
  },
});

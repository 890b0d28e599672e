process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { defineConfig } from 'vitest/config';

/**
 * Tests that need no stand-in (pure functions, the route table, the catalog, the synth-free checks):
 * `npx vitest run --project unit` runs them in seconds without starting DynamoDB Local or any emulator.
 * Everything else is `integration`: one set of stand-ins per run, a table and queues per file.
 */
const UNIT = [
  'test/articles/embedder.test.ts',
  'test/articles/query.test.ts',
  'test/conversations/address.test.ts',
  'test/emails/sender.test.ts',
  'test/foundation/config.test.ts',
  'test/foundation/entity-models.test.ts',
  'test/foundation/error-catalog.test.ts',
  'test/foundation/ip.test.ts',
  'test/foundation/logger.test.ts',
  'test/foundation/layers.test.ts',
  'test/foundation/missing-java.test.ts',
  'test/foundation/route-table.test.ts',
  'test/logs/fingerprint.test.ts',
  'test/logs/templates.test.ts',
  'test/logs/tokens.test.ts',
  'test/templates/text.test.ts',
  'test/webhooks/unit.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 30_000,
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

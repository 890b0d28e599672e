import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { handlerEnvironment, provision, type Resources } from '../../packages/local/src/provision.js';

/**
 * Runs before each test file is imported: a fresh table, queues and bucket on the shared stand-ins,
 * and the environment the handlers read pointed at them.
 */
// A worker's files share its DynamoDB Local (test/setup/global.ts); VITEST_POOL_ID runs from 1.
const dynamodbEndpoints = inject('dynamodbEndpoints');
const worker = Math.max(0, Number(process.env.VITEST_POOL_ID ?? 1) - 1);
const endpoints = { ...inject('endpoints'), dynamodb: dynamodbEndpoints[worker % dynamodbEndpoints.length] as string };
const id = randomBytes(4).toString('hex');
const resources: Resources = await provision(endpoints, {
  tableName: `t-${id}`,
  queuePrefix: `q-${id}`,
  bucket: `b-${id}`,
});
Object.assign(process.env, handlerEnvironment(endpoints, resources), {
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'SILENT',
  // Tests search the moment an index is written; test/articles/search-cache.test.ts covers the cache itself.
  SEARCH_STATE_MAX_AGE_SECONDS: '0',
  AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING: '1',
  // A table made here has every index (test/tickets/list-migration.test.ts and
  // test/emails/list-migration.test.ts play an upgrade).
  TICKET_LISTS: 'narrow',
  EMAIL_LISTS: 'narrow',
});
(globalThis as { __testResources?: Resources }).__testResources = resources;
(globalThis as { __testEndpoints?: typeof endpoints }).__testEndpoints = endpoints;

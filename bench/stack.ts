import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, PurgeQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '@helpdesk/core/kernel/db/client';
import { scanOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { deleteRecords, relayOutbox } from '@helpdesk/core/kernel/ports/relay';
import type { QueueName } from '@helpdesk/core/top/queues/registry';
import { startEmulators } from '../packages/local/src/emulators.js';
import { startHttpServer } from '../packages/local/src/http-server.js';
import { handlerEnvironment, provision } from '../packages/local/src/provision.js';
import { startQueuePollers } from '../packages/local/src/queue-pollers.js';
import { Recorder } from './capacity.js';

export const progress = (message: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

export interface Response {
  status: number;
  body: any;
  ms: number;
}

export type Call = (
  method: string,
  path: string,
  options?: { body?: unknown; query?: Record<string, string | number | boolean>; project?: string },
) => Promise<Response>;

/**
 * The local stack in this process, as `npm start` and the tests run it: stand-ins, a fresh table,
 * the HTTP server and the queue pollers. The pollers run only when a phase asks for them, so the
 * DynamoDB requests counted for an API call are that call's own.
 */
export async function startStack(options: { logLevel?: 'CRITICAL' | 'ERROR' } = {}) {
  const emulators = await startEmulators();
  const resources = await provision(emulators.endpoints, { tableName: 'bench', queuePrefix: 'bench', bucket: 'bench' });
  Object.assign(process.env, handlerEnvironment(emulators.endpoints, resources), {
    LOG_LEVEL: options.logLevel ?? 'CRITICAL',
    AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING: '1',
  });
  const recorder = new Recorder();
  recorder.attach(dynamo);
  const http = await startHttpServer(0);
  const apiUrl = `${http.url}/api/v1`;
  const sqs = new SQSClient({
    endpoint: emulators.endpoints.sqs,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

  let key = '';
  const call: Call = async (method, path, options = {}) => {
    const url = new URL(apiUrl + path);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (options.project) headers['service-project'] = options.project;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const start = performance.now();
    const send = () =>
      fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    // A kept-alive connection the server closed as idle (a phase that paused longer than its 5 s
    // keep-alive, on a busy machine) resets before the request is read: sent again on a new one.
    const res = await send().catch((err: Error & { cause?: { code?: string } }) => {
      if (err.cause?.code === 'ECONNRESET') return send();
      throw err;
    });
    const text = await res.text();
    const ms = performance.now() - start;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* HTML pages */
    }
    return { status: res.status, body, ms };
  };

  // The relay's own client: deployed, the relay is a Lambda of its own, so its requests are not the API's.
  const relayClient = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: emulators.endpoints.dynamodb,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  /** Moves every outbox item to its queue, as the deployed relay does after each commit. */
  const relay = async () => {
    for (let items = await scanOutbox({}, relayClient); items.length; items = await scanOutbox({}, relayClient))
      await relayOutbox(items, { deleteSent: true, client: relayClient });
  };

  let pollers: ReturnType<typeof startQueuePollers> | undefined;
  return {
    endpoints: emulators.endpoints,
    resources,
    apiUrl,
    /** The API key every call (and every load worker) uses. */
    key: () => key,
    dynamo,
    recorder,
    call,
    useKey: (secret: string) => void (key = secret),
    relay,
    /** Starts the queue consumers (Lambda's event source mappings) until stopConsumers; drain relays what they commit. */
    startConsumers() {
      const running = (pollers ??= startQueuePollers(emulators.endpoints.sqs, resources.queueUrls));
      return {
        async drain(timeoutMs: number) {
          const deadline = Date.now() + timeoutMs;
          do {
            await relay();
            await running.drain(Math.max(1, deadline - Date.now()));
          } while ((await scanOutbox({}, relayClient)).length && Date.now() < deadline);
        },
      };
    },
    async stopConsumers() {
      await pollers?.stop();
      pollers = undefined;
    },
    /** Drops queued messages (and outbox items) a phase does not measure (webhook events of seeded tickets, ...). */
    async purge(...queues: QueueName[]) {
      for (const q of queues) {
        await deleteRecords(await scanOutbox({ queue: q }, relayClient), relayClient);
        await sqs.send(new PurgeQueueCommand({ QueueUrl: resources.queueUrls[q] }));
      }
    },
    /** Messages waiting for a queue's consumer: the outbox is relayed first. */
    async waiting(queue: QueueName) {
      await relay();
      const out = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: resources.queueUrls[queue],
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return (
        Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
      );
    },
    async stop() {
      await pollers?.stop();
      relayClient.destroy();
      await http.close();
      sqs.destroy();
      await emulators.stop();
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** An account with the bench's projects and a key whose rate limit load runs never reach. */
export async function createFixtures(projects: string[]) {
  const { createAccount, createProject, setAccountLimits, addMember } = await import(
    '@helpdesk/core/identity/accounts'
  );
  const { createApiKey } = await import('@helpdesk/core/identity/keys');
  const account = await createAccount({ name: 'Bench', plan: 'business' });
  await setAccountLimits(account.accountId, { tickets: 10_000_000, emails: 10_000_000, logEvents: 100_000_000 });
  const ids: Record<string, string> = {};
  for (const slug of projects)
    ids[slug] = (await createProject({ accountId: account.accountId, slug, name: slug })).projectId;
  const members: string[] = [];
  for (let i = 0; i < 5; i++)
    members.push(
      (await addMember({ accountId: account.accountId, email: `agent${i}@bench.example`, name: `Agent ${i}` }))
        .memberId,
    );
  const { key } = await createApiKey({ accountId: account.accountId, env: 'live', rateLimit: 100_000_000 });
  return { accountId: account.accountId, projects: ids, members, key };
}

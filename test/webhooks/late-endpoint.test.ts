import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { fanOut } from '@helpdesk/core/areas/webhooks/deliver';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { testEndpoints, testResources } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';

// Consumers off: the delivery jobs a fan-out queues stay on the queue to be counted.
const app = await startTestApp({ consumers: false });
const sqs = new SQSClient({
  endpoint: testEndpoints().sqs,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

const queuedJobs = async () => {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: testResources().queueUrls.webhooks,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 1,
    }),
  );
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body!) as { webhookId: string });
};

describe('fan-out', () => {
  it('matches the endpoints that existed when the event happened, not those registered while it waited', async () => {
    const t = await createTenant();
    const created = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: 'http://127.0.0.1:9/hook' } });
    expect(created.status).toBe(200);
    const envelope = (timestamp: Date) => ({
      id: randomUUID(),
      event: 'ticket.created' as const,
      timestamp: timestamp.toISOString(),
      accountId: t.accountId,
      projectId: t.projects.main!.id,
      env: 'live' as const,
      data: { ticket: {}, customer: {} },
    });
    await fanOut(envelope(new Date(Date.parse(created.body.createdAt) - 60_000)));
    expect(await queuedJobs()).toEqual([]);
    await fanOut(envelope(new Date(Date.parse(created.body.createdAt) + 1)));
    expect((await queuedJobs()).map((j) => j.webhookId)).toEqual([created.body.id]);
  });
});

import { randomUUID } from 'node:crypto';
import { fanOut } from '@helpdesk/core/areas/webhooks/deliver';
import { scanSmallTableOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

// Consumers and relay off: the delivery jobs a fan-out writes stay in the outbox to be counted.
const app = await startTestApp({ consumers: false });

const queuedJobs = async () =>
  (await scanSmallTableOutbox({ queue: 'webhooks' }))
    .map((r) => JSON.parse(r.body) as { kind?: string; webhookId: string })
    .filter((m) => m.kind === 'delivery');

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

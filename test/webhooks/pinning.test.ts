import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { attemptDelivery, type DeliveryJob } from '@helpdesk/core/areas/webhooks/deliver';
import { verifySignature } from '@helpdesk/core/areas/webhooks/verify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from './receiver.js';

const app = await startTestApp();

const saved = process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS;
afterEach(() => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: saved });
});

const register = async (t: TenantFixture, url: string) => {
  const res = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url } });
  expect(res.status).toBe(200);
  return res.body as { id: string; secret: string };
};
const jobFor = (t: TenantFixture, webhookId: string): DeliveryJob => ({
  kind: 'delivery',
  deliveryId: randomUUID(),
  webhookId,
  accountId: t.accountId,
  projectId: t.projects.main!.id,
  env: 'live',
  event: 'ticket.created',
  timestamp: new Date().toISOString(),
  data: {
    ticket: { id: randomUUID(), number: 1, subject: 'Pinned', status: 'new', priority: 'low' },
    customer: { email: 'pin@example.com', name: null },
  },
  attempt: 1,
});
const lastAttempt = async (t: TenantFixture, id: string) => {
  const res = await app.call('GET', `/webhooks/${id}/deliveries`, { key: t.liveKey });
  expect(res.status).toBe(200);
  return res.body.deliveries[0];
};
/** Maps only hook.test, recording every name it was asked about. */
const resolverTo = (address: string) => {
  const asked: string[] = [];
  const resolve = (host: string) => {
    asked.push(host);
    if (host !== 'hook.test') return Promise.reject(new Error(`unexpected lookup of ${host}`));
    return Promise.resolve([address]);
  };
  return { asked, resolve };
};

describe('pinned delivery address', () => {
  it('connects to the address the guard checked, not to what DNS answers later, keeping the Host header', async () => {
    // The system resolver knows nothing of hook.test: a connection that resolved again would fail.
    await expect(lookup('hook.test')).rejects.toThrow();
    const t = await createTenant();
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    const hook = await register(t, `http://hook.test:${port}/hook?x=1`);
    const { asked, resolve } = resolverTo('127.0.0.1');

    await attemptDelivery(jobFor(t, hook.id), { resolve });

    expect(asked).toEqual(['hook.test']);
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req!.headers.host).toBe(`hook.test:${port}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['content-length']).toBe(String(Buffer.byteLength(req!.body)));
    expect(verifySignature(req!.body, String(req!.headers['x-service-signature']), hook.secret)).toBe(true);
    expect(req!.json).toMatchObject({ event: 'ticket.created', data: { ticket: { subject: 'Pinned' } } });
    expect(await lastAttempt(t, hook.id)).toMatchObject({ statusCode: 200, error: null });
  });

  it('refuses before connecting when the guard resolves the name to a private address in a deployed-stage configuration', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, `https://hook.test:${new URL(receiver.url).port}/hook`);
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false' });

    await attemptDelivery(jobFor(t, hook.id), { resolve: resolverTo('127.0.0.1').resolve });

    expect(receiver.requests).toHaveLength(0);
    const row = await lastAttempt(t, hook.id);
    expect(row.statusCode).toBeNull();
    expect(row.error).toBe(
      'Target refused: hook.test resolves to a non-public address (127.0.0.1 is a loopback address).',
    );
  });

  it('stops reading a large reply after a bounded part and keeps its status', async () => {
    const replyBytes = 64 * 1024 * 1024;
    let finished: boolean | undefined;
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': replyBytes });
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < replyBytes && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (finished = res.writableFinished));
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
    const t = await createTenant();
    const hook = await register(t, `http://hook.test:${(server.address() as AddressInfo).port}/hook`);

    await attemptDelivery(jobFor(t, hook.id), { resolve: resolverTo('127.0.0.1').resolve });

    expect(await lastAttempt(t, hook.id)).toMatchObject({ statusCode: 200, error: null });
    // The client hung up after its 64 KB: 64 MB never fit in the socket buffers, so the server could not finish.
    await expect.poll(() => finished).toBe(false);
  });
});

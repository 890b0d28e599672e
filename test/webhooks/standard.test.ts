import { verifyWebhook } from '@helpdesk/client';
import { verifySignature } from '@helpdesk/core/areas/webhooks/verify';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from './receiver.js';

/**
 * Issue 29: real deliveries from the local stack, verified with the Standard Webhooks reference
 * library and Svix's (both from the registry), and with the typed client's verifier.
 */
const app = await startTestApp();
const saved = { ...process.env };
afterEach(() => setEnv({ WEBHOOK_RETRY_BASE_SECONDS: saved.WEBHOOK_RETRY_BASE_SECONDS }));

const register = async (t: TenantFixture, url: string) => {
  const res = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url, events: ['ticket.created'] } });
  expect(res.status).toBe(200);
  return res.body as { id: string; secret: string };
};
const createTicket = async (t: TenantFixture, subject: string) => {
  const res = await app.call('POST', '/tickets', {
    key: t.liveKey,
    body: { subject, body: 'Hi', customer: { email: 'sw@example.com' } },
  });
  expect(res.status).toBe(200);
  return res.body as { id: string };
};
const headersOf = (h: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));

describe('Standard Webhooks', () => {
  it('signs every delivery so both reference libraries and the typed client verify it, and refuse replays and changes', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, receiver.url);
    const ticket = await createTicket(t, 'Verified delivery');
    await app.drain();
    const [req] = receiver.requests;
    const headers = headersOf(req!.headers);

    expect(headers['webhook-id']).toBe(headers['x-service-delivery']);
    expect(Number(headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new StandardWebhook(hook.secret).verify(req!.body, headers)).toMatchObject({
      type: 'ticket.created',
      data: { ticket: { id: ticket.id } },
    });
    // Svix's verifier answers nothing; it throws when the delivery does not verify.
    expect(() => new SvixWebhook(hook.secret).verify(req!.body, headers)).not.toThrow();
    const typed = verifyWebhook(hook.secret, headers, req!.body);
    expect(typed.type).toBe('ticket.created');
    if (typed.type === 'ticket.created') expect(typed.data.ticket.id).toBe(ticket.id);

    // A captured delivery replayed ten minutes later, or with a changed body, is refused by each.
    const old = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600) };
    const changed = req!.body.replace('Verified delivery', 'Forged delivery');
    for (const verify of [
      (b: string, h: Record<string, string>) => new StandardWebhook(hook.secret).verify(b, h),
      (b: string, h: Record<string, string>) => new SvixWebhook(hook.secret).verify(b, h),
      (b: string, h: Record<string, string>) => verifyWebhook(hook.secret, h, b),
    ]) {
      expect(() => verify(req!.body, old)).toThrow();
      expect(() => verify(changed, headers)).toThrow();
      expect(() => verify(req!.body, headers)).not.toThrow();
    }
  });

  it('keeps the same webhook-id on every attempt of a delivery, with a fresh signed timestamp', async () => {
    setEnv({ WEBHOOK_RETRY_BASE_SECONDS: '0' });
    const t = await createTenant();
    const receiver = await startReceiver((n) => ({ status: n === 0 ? 503 : 200 }));
    const hook = await register(t, receiver.url);
    await createTicket(t, 'Retried delivery');
    await app.drain();
    await receiver.waitFor(2);
    const [first, second] = receiver.requests.map((r) => headersOf(r.headers));
    expect(second!['webhook-id']).toBe(first!['webhook-id']);
    expect(new StandardWebhook(hook.secret).verify(receiver.requests[1]!.body, second!)).toBeTruthy();
  });

  it('signs with the old and the new secret through a rotation overlap, so a receiver on either keeps working', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    const hook = await register(t, receiver.url);
    const rotated = await app.call('POST', `/webhooks/${hook.id}/rotate-secret`, {
      key: t.liveKey,
      body: { overlapHours: 48 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(rotated.body.previousSecrets).toEqual([
      { fingerprint: expect.stringMatching(/^[0-9a-f]{12}$/), validUntil: expect.any(String) },
    ]);
    expect(Date.parse(rotated.body.previousSecrets[0].validUntil) - Date.now()).toBeGreaterThan(47 * 3_600_000);

    await createTicket(t, 'During the overlap');
    await app.drain();
    const [req] = receiver.requests;
    const headers = headersOf(req!.headers);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [hook.secret, rotated.body.secret]) {
      expect(new StandardWebhook(secret).verify(req!.body, headers)).toBeTruthy();
      expect(() => new SvixWebhook(secret).verify(req!.body, headers)).not.toThrow();
      expect(verifySignature(req!.body, headers['x-service-signature']!, secret)).toBe(true);
    }
    // The delivery log says which secrets signed it.
    const log = await app.call('GET', `/webhooks/${hook.id}/deliveries`, { key: t.liveKey });
    expect(log.body.deliveries[0].signedWith).toEqual([
      rotated.body.secretFingerprint,
      rotated.body.previousSecrets[0].fingerprint,
    ]);

    // A second rotation without overlap (a leak) stops both at once.
    const cut = await app.call('POST', `/webhooks/${hook.id}/rotate-secret`, {
      key: t.liveKey,
      body: { overlapHours: 0 },
    });
    expect(cut.body.previousSecrets).toEqual([]);
    await createTicket(t, 'After the cut');
    await app.drain();
    const last = receiver.requests.at(-1)!;
    const lastHeaders = headersOf(last.headers);
    expect(() => new StandardWebhook(hook.secret).verify(last.body, lastHeaders)).toThrow();
    expect(() => new StandardWebhook(rotated.body.secret).verify(last.body, lastHeaders)).toThrow();
    expect(new StandardWebhook(cut.body.secret).verify(last.body, lastHeaders)).toBeTruthy();
    // Overlaps longer than a week are refused.
    const tooLong = await app.call('POST', `/webhooks/${hook.id}/rotate-secret`, {
      key: t.liveKey,
      body: { overlapHours: 169 },
    });
    expect(tooLong.status).toBe(422);
  });
});

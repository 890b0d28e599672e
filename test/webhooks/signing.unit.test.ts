import { deliveryBody } from '@helpdesk/core/areas/webhooks/payload';
import { newWebhookSecret, openSecret, sealSecret } from '@helpdesk/core/areas/webhooks/secret';
import { blockedAddressReason, checkWebhookTarget } from '@helpdesk/core/areas/webhooks/target';
import { signPayload, verifySignature } from '@helpdesk/core/areas/webhooks/verify';
import { afterEach, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

const allowPrivate = process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS;
afterEach(() => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: allowPrivate });
});

describe('verifySignature', () => {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ event: 'ticket.created', timestamp: '2026-01-01T00:00:00.000Z', data: { a: 1 } });

  it('accepts the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const signature = signPayload(body, secret);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(body, signature, secret)).toBe(true);
  });

  it('rejects another body, another secret, a truncated or garbage signature', () => {
    const signature = signPayload(body, secret);
    expect(verifySignature(`${body} `, signature, secret)).toBe(false);
    expect(verifySignature(body, signature, newWebhookSecret())).toBe(false);
    expect(verifySignature(body, signature.slice(0, 63), secret)).toBe(false);
    expect(verifySignature(body, '', secret)).toBe(false);
    expect(verifySignature(body, 'é'.repeat(32), secret)).toBe(false);
  });
});

describe('sealed secrets', () => {
  it('round-trips, hides the secret, and does not open under another endpoint id', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(secret, 'endpoint-a');
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(openSecret(sealed, 'endpoint-a')).toBe(secret);
    expect(() => openSecret(sealed, 'endpoint-b')).toThrow();
  });
});

describe('SSRF guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a00:1', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['64:ff9b::a00:1', 'rfc6052'],
  ])('refuses %s (%s)', (address, range) => {
    expect(blockedAddressReason(address)).toContain(range);
  });

  it.each([
    '::7f00:1',
    '::a9fe:a9fe',
    '::a00:1',
    '::1:2',
    '100::1',
    '3fff::1',
  ])('refuses IPv6 outside global unicast, IPv4-compatible ::/96 included (%s)', (address) => {
    expect(blockedAddressReason(address)).toBeDefined();
  });

  it('refuses the IPv4-compatible spelling of a loopback URL host', async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false' });
    expect(await checkWebhookTarget('https://[::127.0.0.1]/hook')).toBeDefined();
    expect(await checkWebhookTarget('https://[::169.254.169.254]/hook')).toBeDefined();
  });

  it('passes public unicast addresses', () => {
    expect(blockedAddressReason('93.184.216.34')).toBeUndefined();
    expect(blockedAddressReason('2606:4700::1111')).toBeUndefined();
  });

  it('in a deployed-stage configuration requires https and a public address, resolving names', async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false' });
    expect(await checkWebhookTarget('http://93.184.216.34/hook')).toMatch(/https/);
    expect(await checkWebhookTarget('https://127.0.0.1/hook')).toMatch(/loopback/);
    expect(await checkWebhookTarget('https://0x7f000001/hook')).toMatch(/loopback/);
    expect(await checkWebhookTarget('https://[::ffff:127.0.0.1]/hook')).toMatch(/loopback/);
    expect(await checkWebhookTarget('https://localhost:8443/hook')).toMatch(/loopback/);
    expect(await checkWebhookTarget('https://does-not-exist.invalid/hook')).toMatch(/does not resolve/);
    expect(await checkWebhookTarget('https://93.184.216.34/hook')).toBeUndefined();
  });

  it('lets the local stack deliver to loopback over http', async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' });
    expect(await checkWebhookTarget('http://127.0.0.1:9/hook')).toBeUndefined();
    expect(await checkWebhookTarget('ftp://127.0.0.1/hook')).toMatch(/https/);
  });
});

describe('delivery bodies', () => {
  const data = {
    ticket: { id: 'x', number: 42, subject: 'Printer <on> fire & smoke', status: 'new', priority: 'urgent' },
    customer: { email: 'ann@example.com', name: 'Ann' },
  };

  it("json: exactly { event, type, timestamp, data } (the spec's fields and Standard Webhooks' type)", () => {
    expect(JSON.parse(deliveryBody('json', 'ticket.created', '2026-01-01T00:00:00.000Z', data))).toEqual({
      event: 'ticket.created',
      type: 'ticket.created',
      timestamp: '2026-01-01T00:00:00.000Z',
      data,
    });
  });

  it('chat: one section block of mrkdwn with subject, number, customer email and priority, escaped', () => {
    const body = JSON.parse(deliveryBody('chat', 'ticket.created', '2026-01-01T00:00:00.000Z', data));
    expect(body.blocks).toHaveLength(1);
    expect(body.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    const text: string = body.blocks[0].text.text;
    expect(text).toContain('#42');
    expect(text).toContain('Printer &lt;on&gt; fire &amp; smoke');
    expect(text).toContain('ann@example.com');
    expect(text).toContain('urgent');
  });
});

import { suppress } from '@helpdesk/core/areas/emails/suppression';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importTemplate, mailsTo, uniqueAddress } from './helpers.js';

// A 100-item batch is 100 transactions, which DynamoDB Local runs one at a time: 6.5 s alone, and past
// the deployed 29 s limit in two of four clean CI runs with the suite loading two cores (DynamoDB itself
// takes them side by side). The limit here leaves room for that; what is tested is what a batch answers.
const app = await startTestApp({ functionTimeoutMs: 90_000 });

const custom = (to: string, extra: Record<string, unknown> = {}) => ({
  to,
  subject: 'Hello',
  body: 'Plain *body*',
  ...extra,
});

describe('Idempotency-Key', () => {
  it('returns the first send for a repeated key, marked deduplicated, and sends once', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const headers = { 'Idempotency-Key': 'order-1' };
    const first = await app.call('POST', '/emails/send', { key: t.liveKey, headers, body: custom(to) });
    const again = await app.call('POST', '/emails/send', { key: t.liveKey, headers, body: custom(to) });
    expect(first.status).toBe(200);
    expect(first.body.deduplicated).toBe(false);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, deduplicated: true });

    // The key belongs to the project+environment: sandbox with the same key is a new send.
    const sandbox = await app.call('POST', '/emails/send', { key: t.sandboxKey, headers, body: custom(to) });
    expect(sandbox.body.deduplicated).toBe(false);
    expect(sandbox.body.id).not.toBe(first.body.id);

    await app.drain();
    expect(await mailsTo(to)).toHaveLength(1);
    expect((await app.call('GET', '/emails', { key: t.liveKey })).body.total).toBe(1);
  });

  it('answers 422 idempotency.mismatch for the same key with a different body', async () => {
    const t = await createTenant();
    const headers = { 'Idempotency-Key': 'k-mismatch' };
    const to = uniqueAddress();
    expect((await app.call('POST', '/emails/send', { key: t.liveKey, headers, body: custom(to) })).status).toBe(200);
    const other = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      headers,
      body: custom(to, { subject: 'Changed' }),
    });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency.mismatch');
    // Key order in the JSON body does not make it a different request.
    const reordered = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      headers,
      body: { body: 'Plain *body*', subject: 'Hello', to },
    });
    expect(reordered.body.deduplicated).toBe(true);
    await app.drain();
  });

  it('sends exactly once for 20 concurrent requests with one key', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.call('POST', '/emails/send', { key: t.liveKey, headers: { 'Idempotency-Key': 'burst' }, body: custom(to) }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const originals = responses.filter((r) => !r.body.deduplicated);
    expect(originals).toHaveLength(1);
    for (const r of responses) expect({ ...r.body, deduplicated: false }).toEqual(originals[0]!.body);
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(1);
    expect((await app.call('GET', '/emails', { key: t.liveKey })).body.total).toBe(1);
  });

  it('does not keep a failed send: the key works again once the cause is fixed', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const request = {
      key: t.liveKey,
      headers: { 'Idempotency-Key': 'needs-template' },
      body: { to, templateKey: 'later', variables: {} },
    };
    expect((await app.call('POST', '/emails/send', request)).status).toBe(422);
    await importTemplate(app, 'later', '{{!-- subject: Later --}}<p>now</p>', { apiKey: t.liveKey });
    const retry = await app.call('POST', '/emails/send', request);
    expect(retry.status).toBe(200);
    expect(retry.body.deduplicated).toBe(false);
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(1);
  });

  it('rejects a key longer than 256 characters', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      headers: { 'Idempotency-Key': 'k'.repeat(257) },
      body: custom(uniqueAddress()),
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields[0]).toMatchObject({ field: 'Idempotency-Key', in: 'header' });
  });
});

describe('POST /emails/batch', () => {
  it('is 403 on the Free plan', async () => {
    const t = await createTenant({ plan: 'free' });
    const res = await app.call('POST', '/emails/batch', {
      key: t.liveKey,
      body: { emails: [custom(uniqueAddress())] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('plan.upgrade_required');
    expect(res.body.error.message).toContain('Batch sending');
  });

  it('answers each item in order: good items are sent, bad ones carry { index, error }', async () => {
    const t = await createTenant({ plan: 'starter' });
    await importTemplate(app, 'hi', '{{!-- subject: Hi {{name}} --}}<p>Hi {{name}}</p>', { apiKey: t.liveKey });
    const [a, b, c, d] = [uniqueAddress('a'), uniqueAddress('b'), uniqueAddress('c'), uniqueAddress('d')];
    await suppress({ projectId: t.projects.main!.id, env: 'live' }, d, 'complained');
    const res = await app.call('POST', '/emails/batch', {
      key: t.liveKey,
      body: {
        emails: [
          custom(a, { idempotencyKey: 'item-a' }),
          { subject: 'no recipient', body: 'x' },
          { to: b, templateKey: 'missing', variables: {} },
          { to: c, templateKey: 'hi', variables: { name: 'Cy' } },
          custom(a, { idempotencyKey: 'item-a' }),
          custom(d),
          'not even an object',
        ],
      },
    });
    expect(res.status).toBe(200);
    const r = res.body.results;
    expect(r).toHaveLength(7);
    expect(r[0]).toMatchObject({ to: a, status: 'queued', deduplicated: false, blocked: false });
    expect(r[1]).toEqual({ index: 1, error: { code: 'validation.failed', message: expect.stringContaining('to') } });
    expect(r[2]).toEqual({
      index: 2,
      error: { code: 'template.not_found', message: expect.stringContaining('missing') },
    });
    expect(r[3]).toMatchObject({ to: c, kind: 'template', status: 'queued' });
    expect(r[4]).toEqual({ ...r[0], deduplicated: true });
    expect(r[5]).toMatchObject({ to: d, status: 'blocked', blocked: true, blockReason: 'complained' });
    expect(r[6]).toMatchObject({ index: 6, error: { code: 'validation.failed' } });

    await app.drain();
    expect(await mailsTo(a)).toHaveLength(1);
    expect(await mailsTo(b)).toHaveLength(0);
    expect((await mailsTo(c))[0]!.subject).toBe('Hi Cy');
    expect(await mailsTo(d)).toHaveLength(0);
  });

  it('counts as one request for the rate limit, and each item against the email quota', async () => {
    const t = await createTenant({ plan: 'starter', limits: { emails: 3 } });
    const before = await app.call('GET', '/emails', { key: t.liveKey });
    const remaining = Number(before.headers.get('x-ratelimit-remaining'));
    const res = await app.call('POST', '/emails/batch', {
      key: t.liveKey,
      body: { emails: Array.from({ length: 5 }, () => custom(uniqueAddress())) },
    });
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    const errors = res.body.results.filter((x: { error?: unknown }) => x.error);
    expect(errors).toHaveLength(2);
    for (const e of errors) expect(e.error.code).toBe('plan.email_limit');
    await app.drain();
  });

  it('takes 1 to 100 items', async () => {
    const t = await createTenant({ plan: 'pro' });
    expect((await app.call('POST', '/emails/batch', { key: t.sandboxKey, body: { emails: [] } })).status).toBe(422);
    const tooMany = Array.from({ length: 101 }, () => custom('x@example.com'));
    expect((await app.call('POST', '/emails/batch', { key: t.sandboxKey, body: { emails: tooMany } })).status).toBe(
      422,
    );
    const hundred = await app.call('POST', '/emails/batch', {
      key: t.sandboxKey,
      body: { emails: Array.from({ length: 100 }, () => custom(uniqueAddress())) },
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.results.every((x: { status?: string }) => x.status === 'queued')).toBe(true);
    await app.drain(90_000);
    expect((await app.call('GET', '/emails', { key: t.sandboxKey, query: { status: 'captured' } })).body.total).toBe(
      100,
    );
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';

const app = await startTestApp();

describe('hostile and unusual requests', () => {
  it('treats a malformed percent-escape in a path id like any bad id: 401 without a key, 404 with one', async () => {
    const t = await createTenant();
    for (const path of ['/tickets/%E0', '/articles/%E0%A4%A', '/webhooks/%/deliveries']) {
      expect((await app.call('GET', path)).status, path).toBe(401);
      const res = await app.call('GET', path, { key: t.liveKey });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('refuses a multipart upload cut off before its closing boundary with 422, and keeps serving', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/email-templates/import', {
      key: t.liveKey,
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      rawBody: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.hbs"\r\n\r\nhello',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation.failed');
    expect((await app.call('GET', '/projects', { key: t.liveKey })).status).toBe(200);
  });

  it('refuses multipart parts without a field name with 422 (the parser would crash on them), and keeps serving', async () => {
    const t = await createTenant();
    const parts = [
      'Content-Disposition: form-data\r\n\r\nx',
      'Content-Disposition: form-data; filename="a.hbs"\r\n\r\nx',
      'Content-Type: text/plain\r\n\r\nx',
      'Content-Disposition: form-data; name\r\n\r\nx',
    ];
    for (const part of parts) {
      const rawBody = `--B\r\nContent-Disposition: form-data; name="subject"\r\n\r\nok\r\n--B\r\n${part}\r\n--B--\r\n`;
      const headers = { 'content-type': 'multipart/form-data; boundary=B' };
      const res = await app.call('POST', '/email-templates/import', { key: t.liveKey, headers, rawBody });
      expect(res.status, part).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
      // A route anyone may call with a ticket page's link takes multipart too.
      const open = await app.call('POST', `/public/tickets/${'x'.repeat(40)}`, { headers, rawBody });
      expect(open.status, part).toBeLessThan(500);
    }
    expect((await app.call('GET', '/projects', { key: t.liveKey })).status).toBe(200);
  });

  it('delivers events whose data holds characters outside the Basic Multilingual Plane', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    expect(
      (await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: receiver.url, events: ['ticket.created'] } }))
        .status,
    ).toBe(200);
    const subject = 'Party 🎉 time — déjà vu';
    const created = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: { subject, body: 'b', customer: { email: 'emoji@example.com', name: 'Ève 🎉' } },
    });
    expect(created.status).toBe(200);
    await receiver.waitFor(1);
    expect(receiver.requests[0]!.json.data).toMatchObject({ ticket: { subject }, customer: { name: 'Ève 🎉' } });
  });

  it('names the query parameter or header that holds a bad environment or several projects', async () => {
    const t = await createTenant({ projects: ['alpha', 'beta'] });
    const env = await app.call('GET', '/tickets', {
      key: t.liveKey,
      query: { environment: 'staging', project: 'alpha' },
    });
    expect(env.status).toBe(422);
    expect(env.body.error.details.fields).toEqual([
      { field: 'environment', in: 'query', message: 'Expected live or sandbox' },
    ]);
    const two = await app.call('GET', '/tickets', { key: t.liveKey, headers: { 'Service-Project': 'alpha, beta' } });
    expect(two.status).toBe(422);
    expect(two.body.error.details.fields).toEqual([
      { field: 'Service-Project', in: 'header', message: 'Name exactly one project' },
    ]);
  });
});

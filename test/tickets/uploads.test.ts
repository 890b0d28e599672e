import { randomBytes, randomUUID } from 'node:crypto';
import { loadUploads } from '@helpdesk/core/areas/tickets/uploads';
import { readUsage } from '@helpdesk/core/identity/quota';
import { objectSize } from '@helpdesk/core/kernel/ports/blob-store';
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { createTicket, tenantContext } from './helpers.js';

const app = await startTestApp();
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

interface Upload {
  id: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
}

async function startUpload(a: TestApp, key: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await a.call<Upload>('POST', '/attachments', { key, headers, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The client's side of an upload: PUT the bytes to the presigned URL with the headers it was given. */
async function put(upload: Upload, bytes: Buffer, headers = upload.headers) {
  const res = await fetch(upload.uploadUrl, { method: upload.method, headers, body: bytes });
  expect(res.status).toBe(200);
}

const objectKeyOf = (upload: Upload) =>
  decodeURIComponent(new URL(upload.uploadUrl).pathname.split('/').slice(2).join('/'));

describe('POST /attachments', () => {
  it('answers a presigned PUT bound to the size and type, valid 15 minutes, under the project and environment', async () => {
    const t = await createTenant();
    const before = Date.now();
    const upload = await startUpload(app, t.liveKey, {
      fileName: 'report.pdf',
      mimeType: 'application/pdf',
      size: 1234,
    });
    expect(upload).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      uploadUrl: expect.any(String),
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf', 'Content-Length': '1234' },
      expiresAt: expect.any(String),
    });
    const expires = Date.parse(upload.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 900_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 900_000 + 1000);
    const url = new URL(upload.uploadUrl);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host']),
    );
    expect(objectKeyOf(upload)).toBe(`uploads/${t.projects.main!.id}/live/${upload.id}`);

    const sandbox = await startUpload(
      app,
      t.liveKey,
      { fileName: 'a.txt', mimeType: 'text/plain', size: 1 },
      { 'Service-Environment': 'sandbox' },
    );
    expect(objectKeyOf(sandbox)).toBe(`uploads/${t.projects.main!.id}/sandbox/${sandbox.id}`);
  });

  it('takes 1 to 25,000,000 bytes and the attachment rules for names and types (else 422)', async () => {
    const t = await createTenant();
    const ok = { fileName: 'big.bin', mimeType: 'application/octet-stream' };
    for (const body of [
      { ...ok, size: 0 },
      { ...ok, size: 25_000_001 },
      { ...ok, size: 1.5 },
      { ...ok, size: '10' },
      { ...ok },
      { ...ok, size: 1, fileName: '../etc/passwd' },
      { ...ok, size: 1, fileName: '' },
      { ...ok, size: 1, mimeType: 'binary' },
      { ...ok, size: 1, extra: true },
    ]) {
      const res = await app.call('POST', '/attachments', { key: t.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    expect((await app.call('POST', '/attachments', { key: t.liveKey, body: { ...ok, size: 25_000_000 } })).status).toBe(
      200,
    );
  });

  it('needs the tickets:write scope', async () => {
    const t = await createTenant();
    const body = { fileName: 'a.txt', mimeType: 'text/plain', size: 1 };
    const reader = await app.call('POST', '/attachments', { key: await t.key({ scopes: ['tickets:read'] }), body });
    expect(reader.status).toBe(403);
    expect(reader.body.error.code).toBe('auth.forbidden');
    expect(
      (await app.call('POST', '/attachments', { key: await t.key({ scopes: ['tickets:write'] }), body })).status,
    ).toBe(200);
  });
});

describe('attaching uploads to a message', () => {
  it('a 20 MB file reaches a ticket through POST /attachments: same bytes, storage counted, upload spent', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const bytes = randomBytes(20_000_000);
    const upload = await startUpload(app, t.liveKey, {
      fileName: 'capture.bin',
      mimeType: 'application/octet-stream',
      size: bytes.length,
    });
    await put(upload, bytes);

    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'Two files',
        attachments: [
          { fileName: 'note.txt', mimeType: 'text/plain', content: b64('inline') },
          { uploadId: upload.id },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attachments).toEqual([
      {
        id: expect.any(String),
        fileName: 'note.txt',
        fileSize: 6,
        mimeType: 'text/plain',
        url: expect.any(String),
        createdAt: res.body.createdAt,
      },
      {
        id: expect.any(String),
        fileName: 'capture.bin',
        fileSize: 20_000_000,
        mimeType: 'application/octet-stream',
        url: expect.any(String),
        createdAt: res.body.createdAt,
      },
    ]);

    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey });
    const shown = detail.body.messages[1].attachments[1];
    expect(shown).toMatchObject({ fileName: 'capture.bin', fileSize: 20_000_000 });
    expect(new URL(shown.url).pathname).toMatch(
      new RegExp(`/${t.projects.main!.id}/live/tickets/${c.id}/${shown.id}$`),
    );
    const download = await fetch(shown.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await readUsage(t.accountId)).storageBytes).toBe(20_000_006);
    // The file now lives under the ticket; the upload's object is gone.
    expect(await objectSize(objectKeyOf(upload))).toBeUndefined();

    // Deleting the ticket removes the copy and gives the storage back, like any attachment.
    expect((await app.call('DELETE', `/tickets/${c.id}`, { key: t.liveKey })).body.attachmentsRemoved).toBe(2);
    expect((await fetch(shown.url)).status).toBe(404);
    expect((await readUsage(t.accountId)).storageBytes).toBe(0);
    // 20 MB through s3rver's files three times (PUT, copy, GET): seconds alone, far more beside other test files.
  }, 120_000);

  it('a name of 255 characters, most of them beyond ASCII, is attached and downloaded under that name', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    // 4 bytes a character in UTF-8: longer than a file name may be on disk, or in the key it once was part of.
    const fileName = `${'😀'.repeat(125)}.txt`;
    expect(fileName).toHaveLength(254);
    const upload = await startUpload(app, t.liveKey, { fileName, mimeType: 'text/plain', size: 5 });
    await put(upload, Buffer.from('hello'));
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'x',
        attachments: [{ uploadId: upload.id }, { fileName, mimeType: 'text/plain', content: b64('inline') }],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attachments.map((a: { fileName: string }) => a.fileName)).toEqual([fileName, fileName]);
    for (const [i, text] of ['hello', 'inline'].entries()) {
      const download = await fetch(res.body.attachments[i].url);
      expect(download.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(fileName)}`);
      expect(await download.text()).toBe(text);
    }
  });

  it('links an upload once: a second use, or the same id twice in one message, is 422 naming the item', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const upload = await startUpload(app, t.liveKey, { fileName: 'a.txt', mimeType: 'text/plain', size: 5 });
    await put(upload, Buffer.from('hello'));

    const twice = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', attachments: [{ uploadId: upload.id }, { uploadId: upload.id }] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.error.code).toBe('ticket.upload_used');
    expect(twice.body.error.details.fields).toEqual([
      { field: 'attachments.1.uploadId', in: 'body', message: expect.any(String) },
    ]);

    expect(
      (
        await app.call('POST', `/tickets/${c.id}/messages`, {
          key: t.liveKey,
          body: { body: 'x', attachments: [{ uploadId: upload.id }] },
        })
      ).status,
    ).toBe(200);
    const other = await createTicket(app, t.liveKey);
    const again = await app.call('POST', `/tickets/${other.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'x',
        attachments: [{ fileName: 'b.txt', mimeType: 'text/plain', content: b64('b') }, { uploadId: upload.id }],
      },
    });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({
      code: 'ticket.upload_used',
      details: { uploadId: upload.id, fields: [{ field: 'attachments.1.uploadId', in: 'body' }] },
    });
    expect((await app.call('GET', `/tickets/${other.id}`, { key: t.liveKey })).body.messages).toHaveLength(1);
    expect((await readUsage(t.accountId)).storageBytes).toBe(5);
  });

  it('of two messages attaching the same upload at once, exactly one takes it; the other is 422', async () => {
    const t = await createTenant();
    const [c1, c2] = [await createTicket(app, t.liveKey), await createTicket(app, t.liveKey)];
    for (let round = 0; round < 3; round++) {
      const upload = await startUpload(app, t.liveKey, { fileName: 'a.txt', mimeType: 'text/plain', size: 3 });
      await put(upload, Buffer.from('abc'));
      const results = await Promise.all(
        [c1, c2].map((c) =>
          app.call('POST', `/tickets/${c.id}/messages`, {
            key: t.liveKey,
            body: { body: 'x', attachments: [{ uploadId: upload.id }] },
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(results.find((r) => r.status === 422)!.body.error.code).toBe('ticket.upload_used');
    }
    expect((await readUsage(t.accountId)).storageBytes).toBe(9);
    const shown = [c1, c2].map(
      async (c) => (await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.messages.length - 1,
    );
    expect((await Promise.all(shown)).reduce((n, m) => n + m, 0)).toBe(3);
  });

  it('checks the stored object: nothing uploaded, or a size other than declared, is 422 naming the item', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const missing = await startUpload(app, t.liveKey, { fileName: 'a.txt', mimeType: 'text/plain', size: 10 });
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'x',
        attachments: [{ fileName: 'b.txt', mimeType: 'text/plain', content: b64('b') }, { uploadId: missing.id }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'ticket.upload_incomplete',
      details: {
        uploadId: missing.id,
        declaredBytes: 10,
        storedBytes: null,
        fields: [{ field: 'attachments.1.uploadId', in: 'body' }],
      },
    });

    // A client that ignored the signed Content-Length (S3 itself would refuse the PUT; s3rver does not).
    const short = await startUpload(app, t.liveKey, { fileName: 'c.txt', mimeType: 'text/plain', size: 10 });
    await put(short, Buffer.from('12345'), { 'Content-Type': 'text/plain' });
    const mismatch = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', attachments: [{ uploadId: short.id }] },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error).toMatchObject({
      code: 'ticket.upload_incomplete',
      details: { declaredBytes: 10, storedBytes: 5, fields: [{ field: 'attachments.0.uploadId' }] },
    });

    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.messages).toHaveLength(1);
    expect((await readUsage(t.accountId)).storageBytes).toBe(0);
  });

  it('an upload of another project, another environment, or no upload at all is 422 unknown', async () => {
    const t = await createTenant({ projects: ['a', 'b'] });
    const a = { 'Service-Project': 'a' };
    const b = { 'Service-Project': 'b' };
    const upload = await startUpload(app, t.liveKey, { fileName: 'a.txt', mimeType: 'text/plain', size: 1 }, a);
    await put(upload, Buffer.from('1'));
    for (const [headers, uploadId] of [
      [b, upload.id],
      [{ ...a, 'Service-Environment': 'sandbox' }, upload.id],
      [a, randomUUID()],
    ] as const) {
      const c = await createTicket(app, t.liveKey, {}, headers);
      const res = await app.call('POST', `/tickets/${c.id}/messages`, {
        key: t.liveKey,
        headers,
        body: { body: 'x', attachments: [{ uploadId }] },
      });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({
        code: 'ticket.upload_not_found',
        details: { uploadId, fields: [{ field: 'attachments.0.uploadId', in: 'body' }] },
      });
    }
    // Still attachable where it belongs.
    const c = await createTicket(app, t.liveKey, {}, a);
    expect(
      (
        await app.call('POST', `/tickets/${c.id}/messages`, {
          key: t.liveKey,
          headers: a,
          body: { body: 'x', attachments: [{ uploadId: upload.id }] },
        })
      ).status,
    ).toBe(200);
  });

  it('counts uploads against the storage allowance (403 plan.storage_limit, nothing attached, the upload still free)', async () => {
    const t = await createTenant({ limits: { storageBytes: 100 } });
    const c = await createTicket(app, t.liveKey);
    const upload = await startUpload(app, t.liveKey, {
      fileName: 'a.bin',
      mimeType: 'application/octet-stream',
      size: 101,
    });
    await put(upload, Buffer.alloc(101));
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', attachments: [{ uploadId: upload.id }] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('plan.storage_limit');
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.messages).toHaveLength(1);
    expect(await objectSize(objectKeyOf(upload))).toBe(101);
    const [item] = await loadUploads(await tenantContext(t), [{ uploadId: upload.id, position: 0 }]);
    expect(item!.attachedTo).toBeUndefined();
  });

  it('at most 10 attachments in all, inline and uploads together', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const upload = await startUpload(app, t.liveKey, { fileName: 'a.txt', mimeType: 'text/plain', size: 1 });
    await put(upload, Buffer.from('1'));
    const inline = { fileName: 'b.txt', mimeType: 'text/plain', content: b64('b') };
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', attachments: [{ uploadId: upload.id }, ...Array(10).fill(inline)] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation.failed');
    expect(
      (
        await app.call('POST', `/tickets/${c.id}/messages`, {
          key: t.liveKey,
          body: { body: 'x', attachments: [{ uploadId: upload.id }, ...Array(9).fill(inline)] },
        })
      ).status,
    ).toBe(200);
  });
});

describe('uploads nobody attached', () => {
  it('expire after 24 hours: refused when attached later, and the local sweep deletes them (as the lifecycle rule does)', async () => {
    const t = await createTenant();
    const ctx = await tenantContext(t);
    const kept = await startUpload(app, t.liveKey, { fileName: 'kept.txt', mimeType: 'text/plain', size: 4 });
    await put(kept, Buffer.from('kept'));
    const left = await startUpload(app, t.liveKey, { fileName: 'left.txt', mimeType: 'text/plain', size: 4 });
    await put(left, Buffer.from('left'));
    const c = await createTicket(app, t.liveKey);
    const attached = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', attachments: [{ uploadId: kept.id }] },
    });
    expect(attached.status).toBe(200);

    const ref = [{ uploadId: left.id, position: 0 }];
    const dayLater = new Date(Date.now() + 24 * 3600_000 + 60_000);
    await expect(loadUploads(ctx, ref, dayLater.getTime())).rejects.toMatchObject({
      status: 422,
      code: 'ticket.upload_not_found',
    });

    expect(await app.sweepUploads()).toBe(0);
    expect(await objectSize(objectKeyOf(left))).toBe(4);
    expect(await app.sweepUploads(dayLater)).toBeGreaterThanOrEqual(1);
    expect(await objectSize(objectKeyOf(left))).toBeUndefined();
    const late = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', attachments: [{ uploadId: left.id }] },
    });
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('ticket.upload_not_found');
    // The attached file lives under its ticket: the sweep never touches it.
    expect(await (await fetch(attached.body.attachments[0].url)).text()).toBe('kept');
  });
});

import { readUsage } from '@helpdesk/core/identity/quota';
import { describe, expect, it, vi } from 'vitest';
import { mailsTo } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { emitted } from './event-spy.js';
import { createTicket, customerEmail } from './helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) => (await import('./event-spy.js')).spiedRelay(original));

const app = await startTestApp();
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('POST /tickets/{ticketId}/messages', () => {
  it('a public reply moves new to open, emails the customer and fires message.received', async () => {
    const t = await createTenant();
    const email = customerEmail();
    const c = await createTicket(app, t.liveKey, { subject: 'Refund please', customer: { email, name: 'Grace' } });
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'We have refunded you.' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      ticketId: c.id,
      senderType: 'staff',
      visibility: 'public',
      body: 'We have refunded you.',
      createdAt: expect.any(String),
      attachments: [],
    });
    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey });
    expect(detail.body).toMatchObject({ status: 'open', lastSenderType: 'staff', lastMessageAt: res.body.createdAt });
    expect(detail.body.messages.map((m: { senderType: string }) => m.senderType)).toEqual(['customer', 'staff']);

    const received = (await emitted(app)).filter((e) => e.name === 'message.received' && e.data.ticket.id === c.id);
    expect(received).toEqual([
      {
        source: expect.objectContaining({ projectId: t.projects.main!.id, env: 'live' }),
        name: 'message.received',
        data: {
          ticket: { id: c.id, number: c.number, subject: 'Refund please', status: 'open', priority: 'medium' },
          message: {
            id: res.body.id,
            senderType: 'staff',
            visibility: 'public',
            body: 'We have refunded you.',
            createdAt: res.body.createdAt,
          },
          customer: { email, name: 'Grace' },
        },
      },
    ]);
    await app.drain();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Refund please');
    expect(mails[0]!.body.text ?? mails[0]!.body.html).toContain('We have refunded you.');
  });

  it('a public reply leaves other statuses alone', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    await app.call('PATCH', `/tickets/${c.id}`, { key: t.liveKey, body: { status: 'pending' } });
    await app.call('POST', `/tickets/${c.id}/messages`, { key: t.liveKey, body: { body: 'Any news?' } });
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.status).toBe('pending');
  });

  it('an internal note changes no status, emails nobody, is in the detail and fires message.received', async () => {
    const t = await createTenant();
    const email = customerEmail();
    const c = await createTicket(app, t.liveKey, { customer: { email } });
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'Customer is a VIP', visibility: 'internal' },
    });
    expect(res.status).toBe(200);
    expect(res.body.visibility).toBe('internal');
    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey });
    expect(detail.body.status).toBe('new');
    expect(detail.body.lastSenderType).toBe('staff');
    expect(detail.body.messages[1]).toMatchObject({
      id: res.body.id,
      visibility: 'internal',
      body: 'Customer is a VIP',
    });
    expect((await emitted(app)).filter((e) => e.name === 'message.received' && e.data.ticket.id === c.id)).toHaveLength(
      1,
    );
    await app.drain();
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('never emails from sandbox', async () => {
    const t = await createTenant();
    const email = customerEmail();
    for (const [key, headers] of [
      [t.sandboxKey, {}],
      [t.liveKey, { 'Service-Environment': 'sandbox' }],
    ] as const) {
      const c = await createTicket(app, key, { customer: { email } }, headers);
      const res = await app.call('POST', `/tickets/${c.id}/messages`, {
        key,
        headers,
        body: { body: 'Sandbox reply' },
      });
      expect(res.status).toBe(200);
      expect((await app.call('GET', `/tickets/${c.id}`, { key, headers })).body.status).toBe('open');
    }
    await app.drain();
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('validates the body and is 404 across projects and environments', async () => {
    const t = await createTenant({ projects: ['a', 'b'] });
    const a = { 'Service-Project': 'a' };
    const c = await createTicket(app, t.liveKey, {}, a);
    for (const body of [
      {},
      { body: '' },
      // Blank, and not Unicode text (a lone surrogate): refused as the create's body is.
      { body: '  \n ' },
      { body: 'a\ud800b' },
      { body: 'x'.repeat(10_001) },
      { body: 'x', visibility: 'private' },
      { body: 'x', cc: 'y' },
    ]) {
      const res = await app.call('POST', `/tickets/${c.id}/messages`, { key: t.liveKey, headers: a, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const max = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      headers: a,
      body: { body: 'x'.repeat(10_000) },
    });
    expect(max.status).toBe(200);
    for (const headers of [{ 'Service-Project': 'b' }, { ...a, 'Service-Environment': 'sandbox' }]) {
      const res = await app.call('POST', `/tickets/${c.id}/messages`, { key: t.liveKey, headers, body: { body: 'x' } });
      expect(res.status).toBe(404);
    }
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey, headers: a })).body.messages).toHaveLength(2);
  });
});

describe("the customer's own messages (senderType customer)", () => {
  it('reopens a pending or resolved ticket, sets lastSenderType customer, is never emailed and fires message.received', async () => {
    const t = await createTenant();
    const email = customerEmail();
    const c = await createTicket(app, t.liveKey, { subject: 'Widget chat', customer: { email, name: 'Ada' } });
    const awaiting = async () =>
      (await app.call('GET', '/tickets', { key: t.liveKey, query: { awaitingReply: 'true' } })).body.tickets.map(
        (r: { id: string }) => r.id,
      );
    const say = (body: string) =>
      app.call('POST', `/tickets/${c.id}/messages`, { key: t.liveKey, body: { body, senderType: 'customer' } });
    const detail = async () => (await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body;

    // A new ticket keeps its status; a staff reply opens it and it no longer awaits a reply.
    expect((await say('Also, the app crashes')).body).toMatchObject({ senderType: 'customer', visibility: 'public' });
    expect(await detail()).toMatchObject({ status: 'new', lastSenderType: 'customer' });
    await app.call('POST', `/tickets/${c.id}/messages`, { key: t.liveKey, body: { body: 'Which version?' } });
    expect(await awaiting()).not.toContain(c.id);

    for (const waiting of ['pending', 'resolved'] as const) {
      await app.call('PATCH', `/tickets/${c.id}`, { key: t.liveKey, body: { status: waiting } });
      const res = await say(`Still broken (${waiting})`);
      expect(res.status).toBe(200);
      expect(await detail()).toMatchObject({
        status: 'open',
        lastSenderType: 'customer',
        lastMessageAt: res.body.createdAt,
      });
      expect(await awaiting()).toContain(c.id);
      const received = (await emitted(app)).filter(
        (e) => e.name === 'message.received' && e.data.message.id === res.body.id,
      );
      expect(received.map((e) => e.data.message)).toEqual([
        {
          id: res.body.id,
          senderType: 'customer',
          visibility: 'public',
          body: `Still broken (${waiting})`,
          createdAt: res.body.createdAt,
        },
      ]);
    }
    // A closed ticket stays closed (reopen it with PATCH).
    await app.call('PATCH', `/tickets/${c.id}`, { key: t.liveKey, body: { status: 'closed' } });
    await say('Hello?');
    expect((await detail()).status).toBe('closed');

    await app.drain();
    // Only the one staff reply was mailed: the customer is never emailed their own words.
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual([expect.stringContaining('Widget chat')]);
  });

  it('refuses an internal customer message and an unknown senderType with 422', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const internal = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', senderType: 'customer', visibility: 'internal' },
    });
    expect(internal.status).toBe(422);
    expect(internal.body.error.details.fields).toEqual([expect.objectContaining({ field: 'visibility', in: 'body' })]);
    const bad = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: 'x', senderType: 'bot' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields).toEqual([expect.objectContaining({ field: 'senderType' })]);
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.messages).toHaveLength(1);
  });
});

describe('attachments', () => {
  it('stores attachments in S3, serves presigned URLs, counts storage, and DELETE removes them all', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'See attached',
        attachments: [
          { fileName: 'notes.txt', mimeType: 'text/plain', content: b64('hello attachment') },
          { fileName: 'shot.png', mimeType: 'image/png', content: b64(png) },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.attachments).toEqual([
      {
        id: expect.any(String),
        fileName: 'notes.txt',
        fileSize: 16,
        mimeType: 'text/plain',
        url: expect.any(String),
        createdAt: res.body.createdAt,
      },
      {
        id: expect.any(String),
        fileName: 'shot.png',
        fileSize: 8,
        mimeType: 'image/png',
        url: expect.any(String),
        createdAt: res.body.createdAt,
      },
    ]);
    const url = res.body.attachments[0].url as string;
    // The key is the ids alone; the name reaches the download as its Content-Disposition.
    expect(new URL(url).pathname).toMatch(
      new RegExp(`/${t.projects.main!.id}/live/tickets/${c.id}/${res.body.attachments[0].id}$`),
    );
    const download = await fetch(url);
    expect(download.headers.get('content-disposition')).toContain('attachment; filename="notes.txt"');
    expect(await download.text()).toBe('hello attachment');
    expect(Buffer.from(await (await fetch(res.body.attachments[1].url)).arrayBuffer())).toEqual(png);
    expect((await readUsage(t.accountId)).storageBytes).toBe(24);

    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey });
    expect(detail.body.messages[1].attachments.map((a: { fileName: string }) => a.fileName)).toEqual([
      'notes.txt',
      'shot.png',
    ]);

    const deleted = await app.call('DELETE', `/tickets/${c.id}`, { key: t.liveKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      deleted: true,
      id: c.id,
      attachmentsRemoved: 2,
      projectId: t.projects.main!.id,
      projectSlug: 'main',
    });
    expect((await fetch(url)).status).toBe(404);
    expect((await readUsage(t.accountId)).storageBytes).toBe(0);
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).status).toBe(404);
    expect((await app.call('DELETE', `/tickets/${c.id}`, { key: t.liveKey })).status).toBe(404);
  });

  it('refuses attachments over the storage allowance with the plan 403 and stores nothing', async () => {
    const t = await createTenant({ limits: { storageBytes: 100 } });
    const c = await createTicket(app, t.liveKey);
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'big',
        attachments: [{ fileName: 'a.bin', mimeType: 'application/octet-stream', content: b64(Buffer.alloc(101)) }],
      },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('plan.storage_limit');
    const detail = await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey });
    expect(detail.body.messages).toHaveLength(1);
    expect(detail.body.status).toBe('new');
    // Sandbox storage is exempt.
    const s = await createTicket(app, t.sandboxKey);
    const ok = await app.call('POST', `/tickets/${s.id}/messages`, {
      key: t.sandboxKey,
      body: {
        body: 'big',
        attachments: [{ fileName: 'a.bin', mimeType: 'application/octet-stream', content: b64(Buffer.alloc(101)) }],
      },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses more than 10 attachments, bad base64, bad names and types and more than 4,000,000 bytes decoded with 422', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const file = { fileName: 'a.txt', mimeType: 'text/plain', content: b64('a') };
    const cases = [
      Array.from({ length: 11 }, () => file),
      [{ ...file, content: '***' }],
      [{ ...file, fileName: '../etc/passwd' }],
      [{ ...file, mimeType: 'text' }],
      [{ ...file, mimeType: `text/${'x'.repeat(251)}` }],
      [{ ...file, extra: 1 }],
    ];
    for (const attachments of cases) {
      const res = await app.call('POST', `/tickets/${c.id}/messages`, {
        key: t.liveKey,
        body: { body: 'x', attachments },
      });
      expect(res.status).toBe(422);
    }
    const big = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'x',
        attachments: [
          { fileName: 'big.bin', mimeType: 'application/octet-stream', content: b64(Buffer.alloc(3_000_000)) },
          { fileName: 'more.bin', mimeType: 'application/octet-stream', content: b64(Buffer.alloc(1_000_001)) },
        ],
      },
    });
    // Still small enough to reach the handler (about 5.3 MB of event), which answers the documented 422.
    expect(big.status).toBe(422);
    expect(big.body.error).toMatchObject({
      code: 'ticket.attachments_too_large',
      details: { maxBytes: 4_000_000, bytes: 4_000_001 },
    });
    expect((await readUsage(t.accountId)).storageBytes).toBe(0);
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.messages).toHaveLength(1);
  });
});

describe('the size of a request', () => {
  it('the largest valid inline request still reaches the handler: 4,000,000 bytes, the longest body, names and types', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    // The characters a body may hold that grow most when it is escaped again inside the Lambda event
    // (quotes: control characters, which grew more, are refused in a body); names of the longest length
    // (the object key does not hold them: s3rver stored keys as files, 255 bytes a name).
    const attachments = Array.from({ length: 10 }, (_, i) => ({
      fileName: `${i}${'"'.repeat(254)}`,
      mimeType: `application/${'x'.repeat(243)}`,
      content: b64(Buffer.alloc(400_000, i)),
    }));
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: { body: '"'.repeat(10_000), visibility: 'internal', attachments },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.attachments.map((a: { fileSize: number }) => a.fileSize)).toEqual(Array(10).fill(400_000));
  });

  it("a request whose Lambda event would exceed 6 MiB gets API Gateway's own 413, before any handler runs", async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    // 5,000,000 bytes are 6,666,668 base64 characters: more than a Lambda event may carry (6,291,456 bytes).
    const res = await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'x',
        attachments: [
          { fileName: 'five.bin', mimeType: 'application/octet-stream', content: b64(Buffer.alloc(5_000_000)) },
        ],
      },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe('{"message":"Request Entity Too Large"}');
    expect(res.headers.get('x-ratelimit-limit')).toBeNull(); // the pipeline never ran
    expect((await app.call('GET', `/tickets/${c.id}`, { key: t.liveKey })).body.messages).toHaveLength(1);
    expect((await readUsage(t.accountId)).storageBytes).toBe(0);

    // Any route: the limit is the invoke's, whatever the body holds (here JSON text of 6.3 MB).
    const ticket = await app.call('POST', '/tickets', {
      key: t.liveKey,
      body: { subject: 'x', body: 'y'.repeat(6_300_000), customer: { email: 'a@example.com' } },
    });
    expect(ticket.status).toBe(413);
    expect(ticket.body).toEqual({ message: 'Request Entity Too Large' });
    // And so is a body over API Gateway's own 10 MB limit.
    const huge = await app.call('POST', '/tickets', {
      key: t.liveKey,
      rawBody: Buffer.alloc(10 * 1024 * 1024 + 1, 0x61),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ message: 'Request Entity Too Large' });
  });
});

describe('DELETE /tickets/{ticketId}', () => {
  it('removes the ticket with its thread, frees its number lookup and count, emails nobody, and is 404 across tenants', async () => {
    const t = await createTenant({ projects: ['a', 'b'] });
    const a = { 'Service-Project': 'a' };
    const email = customerEmail();
    const keep = await createTicket(app, t.liveKey, {}, a);
    const c = await createTicket(app, t.liveKey, { customer: { email }, tags: ['x'] }, a);
    await app.call('POST', `/tickets/${c.id}/messages`, {
      key: t.liveKey,
      headers: a,
      body: { body: 'note', visibility: 'internal' },
    });
    for (const headers of [{ 'Service-Project': 'b' }, { ...a, 'Service-Environment': 'sandbox' }]) {
      expect((await app.call('DELETE', `/tickets/${c.id}`, { key: t.liveKey, headers })).status).toBe(404);
    }
    const res = await app.call('DELETE', `/tickets/${c.id}`, { key: t.liveKey, headers: a });
    expect(res.body).toEqual({
      deleted: true,
      id: c.id,
      attachmentsRemoved: 0,
      projectId: t.projects.a!.id,
      projectSlug: 'a',
    });
    const list = await app.call('GET', '/tickets', { key: t.liveKey, headers: a });
    expect(list.body.total).toBe(1);
    expect(list.body.tickets.map((r: { id: string }) => r.id)).toEqual([keep.id]);
    expect(
      (await app.call('GET', '/tickets', { key: t.liveKey, headers: a, query: { number: c.number } })).body.tickets,
    ).toEqual([]);
    await app.drain();
    expect(await mailsTo(email)).toHaveLength(0);
  });
});

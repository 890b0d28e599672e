import { PAGE_POSTS_PER_MINUTE } from '@helpdesk/core/areas/conversations/values';
import { signToken } from '@helpdesk/core/kernel/links/signed';
import { ticketPageLink } from '@helpdesk/core/kernel/links/ticket-page';
import { describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from '../tickets/event-spy.js';
import { createTicket, customerEmail } from '../tickets/helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) =>
  (await import('../tickets/event-spy.js')).spiedRelay(original),
);

const app = await startTestApp();

/** A ticket with a staff reply and an internal note, and its page path. */
async function ticketWithPage(t: TenantFixture) {
  const ticket = await createTicket(app, t.liveKey, { subject: 'Lost parcel', customer: { email: customerEmail() } });
  await app.call('POST', `/tickets/${ticket.id}/messages`, {
    key: t.liveKey,
    body: { body: 'We are looking into it.' },
  });
  await app.call('POST', `/tickets/${ticket.id}/messages`, {
    key: t.liveKey,
    body: { body: 'Courier is useless', visibility: 'internal' },
  });
  const link = ticketPageLink({ projectId: t.projects.main!.id, env: 'live' }, ticket.id);
  return { ticket, path: new URL(link).pathname };
}

describe("the customer's ticket page", () => {
  it('shows subject, number, status and public messages as HTML and JSON, never an internal note', async () => {
    const t = await createTenant();
    const { ticket, path } = await ticketWithPage(t);
    const html = await app.call('GET', path);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(html.text).toContain('Lost parcel');
    expect(html.text).toContain(`#${ticket.number}`);
    expect(html.text).toContain('We are looking into it.');
    expect(html.text).not.toContain('Courier is useless');
    const json = await app.call('GET', path, { headers: { accept: 'application/json' } });
    expect(json.body).toMatchObject({ id: ticket.id, number: ticket.number, subject: 'Lost parcel', status: 'open' });
    expect(json.body.messages.map((m: { senderType: string; body: string }) => [m.senderType, m.body])).toEqual([
      ['customer', 'It says my password is wrong.'],
      ['staff', 'We are looking into it.'],
    ]);
  });

  it('takes an answer from the form (with a file) or as JSON, with the effects of an answer by mail', async () => {
    const t = await createTenant();
    const { ticket, path } = await ticketWithPage(t);
    await app.call('PATCH', `/tickets/${ticket.id}`, { key: t.liveKey, body: { status: 'pending' } });
    const form = new FormData();
    form.set('body', 'Here is the receipt.');
    form.set('file', new Blob(['receipt-bytes'], { type: 'application/pdf' }), 'receipt.pdf');
    const posted = await app.call('POST', path, { rawBody: form });
    expect(posted.status).toBe(200);
    expect(posted.text).toContain('Here is the receipt.');
    const detail = (await app.call('GET', `/tickets/${ticket.id}`, { key: t.liveKey })).body;
    expect(detail).toMatchObject({ status: 'open', lastSenderType: 'customer' });
    const last = detail.messages.at(-1);
    expect(last).toMatchObject({ senderType: 'customer', body: 'Here is the receipt.' });
    expect(last.attachments).toEqual([
      expect.objectContaining({ fileName: 'receipt.pdf', mimeType: 'application/pdf', fileSize: 13 }),
    ]);
    expect(
      (await emitted(app)).some(
        (e) =>
          e.name === 'message.received' && e.data.message.id === last.id && e.data.message.senderType === 'customer',
      ),
    ).toBe(true);

    const json = await app.call('POST', path, {
      body: {
        body: 'And a photo.',
        attachments: [{ fileName: 'p.png', mimeType: 'image/png', content: Buffer.from('png').toString('base64') }],
      },
    });
    expect(json.status).toBe(200);
    expect(json.body.messages.at(-1)).toMatchObject({
      senderType: 'customer',
      body: 'And a photo.',
      attachments: [expect.objectContaining({ fileName: 'p.png' })],
    });
  });

  it('continues a closed ticket in a new one that names it', async () => {
    const t = await createTenant();
    const { ticket, path } = await ticketWithPage(t);
    await app.call('PATCH', `/tickets/${ticket.id}`, { key: t.liveKey, body: { status: 'closed' } });
    const posted = await app.call('POST', path, { body: { body: 'It is back.' } });
    expect(posted.status).toBe(200);
    expect(posted.body.id).not.toBe(ticket.id);
    const followUp = (await app.call('GET', `/tickets/${posted.body.id}`, { key: t.liveKey })).body;
    expect(followUp).toMatchObject({ followUpOf: ticket.id, subject: 'Lost parcel' });
  });

  it('is 404 for a forged token, another kind of token, or a ticket gone', async () => {
    const t = await createTenant();
    const { ticket, path } = await ticketWithPage(t);
    const token = path.split('/').at(-1)!;
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await app.call('GET', `/api/v1/public/tickets/${forged}`)).status).toBe(404);
    // The address holds the token: no answer of it, JSON or page, error or not, is cached or sent on.
    for (const res of [
      await app.call('GET', path, { headers: { accept: 'application/json' } }),
      await app.call('GET', path),
      await app.call('GET', `/api/v1/public/tickets/${forged}`, { headers: { accept: 'application/json' } }),
      await app.call('POST', path, { body: { body: '' } }),
    ]) {
      expect(res.headers.get('cache-control'), res.text.slice(0, 80)).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
    }
    expect(
      (await app.call('GET', `/api/v1/public/tickets/${forged}`, { headers: { accept: 'application/json' } })).body
        .error.code,
    ).toBe('not_found');
    // A feedback link's token (kind c) names the same ids but another purpose.
    const other = signToken(['c', t.projects.main!.id, 'live', ticket.id]);
    expect((await app.call('GET', `/api/v1/public/tickets/${other}`)).status).toBe(404);
    // Another project's id in a signed token: not this tenant's ticket.
    const elsewhere = await createTenant();
    const foreign = signToken(['t', elsewhere.projects.main!.id, 'live', ticket.id]);
    expect(
      (await app.call('GET', `/api/v1/public/tickets/${foreign}`, { headers: { accept: 'application/json' } })).status,
    ).toBe(404);
    expect((await app.call('POST', `/api/v1/public/tickets/${foreign}`, { body: { body: 'hi' } })).status).toBe(404);
    await app.call('DELETE', `/tickets/${ticket.id}`, { key: t.liveKey });
    expect((await app.call('GET', path)).status).toBe(404);
  });

  it(`lets one link post ${PAGE_POSTS_PER_MINUTE} answers a minute`, async () => {
    const t = await createTenant();
    const minute = () => Math.floor(Date.now() / 60_000);
    // Windows are fixed minutes: a run that crossed a minute's end proves nothing, so it runs again on a
    // fresh ticket (two runs in a row cannot both cross one, each being far shorter than a minute).
    for (let attempt = 0; ; attempt++) {
      const { path } = await ticketWithPage(t);
      const started = minute();
      const statuses: number[] = [];
      for (let i = 0; i <= PAGE_POSTS_PER_MINUTE; i++)
        statuses.push((await app.call('POST', path, { body: { body: `Answer ${i}` } })).status);
      if (minute() !== started && attempt === 0) continue;
      expect(statuses.slice(0, PAGE_POSTS_PER_MINUTE).every((s) => s === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      return;
    }
  });
});

describe("the customer's ticket page refuses bad input with a 4xx", () => {
  it('keeps every file of the form, in order', async () => {
    const t = await createTenant();
    const { ticket, path } = await ticketWithPage(t);
    const form = new FormData();
    form.set('body', 'Two files.');
    form.append('file', new Blob(['one']), 'one.txt');
    form.append('file', new Blob(['two']), 'two.txt');
    expect((await app.call('POST', path, { rawBody: form })).status).toBe(200);
    const detail = (await app.call('GET', `/tickets/${ticket.id}`, { key: t.liveKey })).body;
    expect(detail.messages.at(-1).attachments.map((a: { fileName: string }) => a.fileName)).toEqual([
      'one.txt',
      'two.txt',
    ]);
  });

  it('answers 422 (never 500) for a text field named file, too many files, an empty answer or a non-object body', async () => {
    const t = await createTenant();
    const { path } = await ticketWithPage(t);
    const textAsFile = new FormData();
    textAsFile.set('body', 'Hello');
    textAsFile.set('file', 'not a file');
    const tooMany = new FormData();
    tooMany.set('body', 'Hello');
    for (let i = 0; i <= 10; i++) tooMany.append('file', new Blob([`f${i}`]), `f${i}.txt`);
    const empty = new FormData();
    empty.set('body', '   ');
    for (const rawBody of [textAsFile, tooMany, empty]) {
      const res = await app.call('POST', path, { rawBody, headers: { accept: 'application/json' } });
      expect(res.status, `${[...rawBody.keys()].join(',')} ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
    }
    for (const body of [
      [],
      'text',
      { body: 42 },
      { body: 'x'.repeat(10_001) },
      { body: 'ok', attachments: [{ fileName: 'a', mimeType: 'bad', content: '!' }] },
      // Fields a customer has no say in are refused, not ignored.
      { body: 'ok', visibility: 'internal' },
      { body: 'ok', senderType: 'staff' },
      // JSON can spell a lone surrogate; it is no text.
      { body: 'lone \ud800' },
    ]) {
      const res = await app.call('POST', path, { body });
      expect(res.status, JSON.stringify(body).slice(0, 50)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
  });
});

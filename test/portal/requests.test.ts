import { REQUEST_FILES, REQUESTS_PER_IP_PER_MINUTE } from '@helpdesk/core/areas/portal/values';
import { describe, expect, it, vi } from 'vitest';
import { mailsTo, uniqueAddress } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { emitted } from '../tickets/event-spy.js';
import { openPortal, publish, requestForm } from './helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) =>
  (await import('../tickets/event-spy.js')).spiedRelay(original),
);

const app = await startTestApp();

const send = (handle: string, form: FormData | URLSearchParams, headers: Record<string, string> = {}) =>
  app.call('POST', `/help/${handle}/requests`, {
    rawBody: form,
    headers:
      form instanceof URLSearchParams ? { 'content-type': 'application/x-www-form-urlencoded', ...headers } : headers,
  });

const ticketsOf = async (key: string, email: string, project?: string) =>
  (
    await app.call('GET', '/tickets', {
      key,
      query: { limit: 100 },
      headers: project ? { 'Service-Project': project } : {},
    })
  ).body.tickets.filter(
    (x: { customer?: { email: string }; customerEmail?: string }) =>
      (x.customer?.email ?? x.customerEmail) === email.toLowerCase(),
  );

describe('the request form', () => {
  it('offers the articles that match a subject before the form, without JavaScript', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const a = await publish(app, t.liveKey, { title: 'Refund a payment', body: 'Refunds take five days.' });
    await app.drain();
    const start = await app.call('GET', `/help/${handle}/requests/new`);
    expect(start.status).toBe(200);
    expect(start.text).toContain('name="subject"');
    expect(start.text).not.toContain('name="message"');
    const form = await app.call('GET', `/help/${handle}/requests/new`, { query: { subject: 'refund please' } });
    expect(form.text).toContain('Do any of these answer your question?');
    expect(form.text).toContain(`/help/${handle}/articles/${a.slug}`);
    expect(form.text).toContain('name="message"');
    expect(form.text).toContain('value="refund please"');
    expect(form.text).not.toContain('<script>');
  });

  it('opens a ticket (source portal) with its files and mails the customer its page link, shown only there', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const email = uniqueAddress('portal');
    const res = await send(
      handle,
      requestForm({ email, name: 'Pat Doe', subject: 'Broken widget', message: 'It fell apart.' }, [
        { name: 'photo.txt', content: 'pixels' },
        { name: 'receipt.txt', content: 'paid' },
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('we received your request');
    // The form takes any address: the page never hands out the ticket's link, only the mail does.
    expect(res.text).not.toContain('/public/tickets/');
    const [ticket] = await ticketsOf(t.liveKey, email);
    expect(ticket).toMatchObject({ subject: 'Broken widget' });
    const detail = await app.call('GET', `/tickets/${ticket.id}`, { key: t.liveKey });
    expect(detail.body.messages[0].body).toBe('It fell apart.');
    expect(detail.body.messages[0].attachments.map((x: { fileName: string }) => x.fileName)).toEqual([
      'photo.txt',
      'receipt.txt',
    ]);
    const created = (await emitted(app)).filter((e) => e.name === 'ticket.created' && e.data.ticket?.id === ticket.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.data).toMatchObject({ source: 'portal', customer: { email, name: 'Pat Doe' } });
    await app.drain();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(`#${ticket.number}`);
    const text = mails[0]!.body.text ?? mails[0]!.body.html ?? '';
    // Nothing the visitor typed reaches the mail (it could be anyone's address).
    expect(text).not.toContain('Broken widget');
    const link = text.match(/https?:\/\/[^\s)"]*\/public\/tickets\/[\w.-]+/)?.[0];
    expect(link).toBeDefined();
    // The link works: the customer sees the ticket.
    const page = await app.call('GET', new URL(link!).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('It fell apart.');
  });

  it('shows the form again with the problems by field (422), keeping what was typed', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const res = await send(handle, new URLSearchParams({ email: 'not-an-address', subject: 'Help', message: '' }));
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('aria-invalid="true"');
    expect(res.text).toContain('value="not-an-address"');
    expect(res.text).toContain('Write your message');
    const email = uniqueAddress('files');
    const notAFile = await send(
      handle,
      new URLSearchParams({ email: uniqueAddress(), subject: 'S', message: 'M', file: 'abc' }),
    );
    expect(notAFile.status).toBe(422);
    expect(notAFile.text).toContain('Expected a file');
    const files = Array.from({ length: REQUEST_FILES + 1 }, (_, i) => ({ name: `f${i}.txt`, content: 'x' }));
    const many = await send(handle, requestForm({ email, subject: 'Files', message: 'Six' }, files));
    expect(many.status).toBe(422);
    expect(many.text).toContain(`Attach at most ${REQUEST_FILES} files`);
    // As the API's ticket fields: a one-line subject, a message without control characters.
    const control = await send(handle, new URLSearchParams({ email, subject: 'Bell\u0007', message: 'Nul\u0000' }));
    expect(control.status).toBe(422);
    expect(control.text).toContain('Control characters and line breaks are not allowed');
    expect(control.text).toContain('Control characters other than tabs and line breaks are not allowed');
    // JSON can spell a lone surrogate; it is no text (no UTF-8 for it, in the table or in mail).
    const lone = await app.call('POST', `/help/${handle}/requests`, {
      body: { email, subject: 'Lone \ud800', message: 'Lone \udc00' },
    });
    expect(lone.status).toBe(422);
    expect(await ticketsOf(t.liveKey, email)).toHaveLength(0);
  });

  it('thanks a bot that filled the honeypot and creates nothing', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const email = uniqueAddress('bot');
    const res = await send(
      handle,
      new URLSearchParams({ email, subject: 'Cheap pills', message: 'Buy now', website: 'http://spam.example' }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('we received your request');
    expect(await ticketsOf(t.liveKey, email)).toHaveLength(0);
    await app.drain();
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('limits requests naming one address per hour, with a page and Retry-After', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const email = uniqueAddress('limit');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await send(handle, new URLSearchParams({ email, subject: `S${i}`, message: 'M' }))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const over = await send(handle, new URLSearchParams({ email: email.toUpperCase(), subject: 'S', message: 'M' }));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.text).toContain('Too many requests');
  });

  it(`limits one IP to ${REQUESTS_PER_IP_PER_MINUTE} requests a minute per help center`, async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const minute = () => Math.floor(Date.now() / 60_000);
    // Fixed minute windows: a run that crossed a minute's end runs again (two in a row cannot).
    for (let attempt = 0; ; attempt++) {
      const started = minute();
      const statuses: number[] = [];
      for (let i = 0; i <= REQUESTS_PER_IP_PER_MINUTE; i++)
        statuses.push(
          (await send(handle, new URLSearchParams({ email: uniqueAddress('ip'), subject: 'S', message: 'M' }))).status,
        );
      if (minute() !== started && attempt === 0) continue;
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(REQUESTS_PER_IP_PER_MINUTE);
      expect(statuses.at(-1)).toBe(429);
      break;
    }
    // Another help center is not affected.
    const other = await openPortal(app, await createTenant());
    expect(
      (await send(other, new URLSearchParams({ email: uniqueAddress(), subject: 'S', message: 'M' }))).status,
    ).toBe(200);
  });

  it('shows a polite page, never a 500, when the project is over its ticket quota', async () => {
    const t = await createTenant({ limits: { tickets: 0 } });
    const handle = await openPortal(app, t);
    const res = await send(handle, new URLSearchParams({ email: uniqueAddress(), subject: 'Quota', message: 'M' }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.text).toContain('We cannot take new requests right now');
  });

  it('opens tickets only in the live environment of its own project', async () => {
    const t = await createTenant({ projects: ['main', 'docs'] });
    const handle = await openPortal(app, t);
    const email = uniqueAddress('env');
    await send(handle, new URLSearchParams({ email, subject: 'Where', message: 'Here' }));
    expect(await ticketsOf(t.liveKey, email, 'main')).toHaveLength(1);
    expect(await ticketsOf(t.sandboxKey, email, 'main')).toHaveLength(0);
    expect(await ticketsOf(t.liveKey, email, 'docs')).toHaveLength(0);
  });
});

describe("the request form and the project's ticket fields", () => {
  it('shows each required field as a control (and no other), and stores the values like the API', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const define = (body: Record<string, unknown>) =>
      app.call('POST', '/ticket-fields', { key: t.liveKey, body: { required: true, ...body } });
    await define({ key: 'order_id', label: 'Order number', type: 'text' });
    await define({ key: 'qty', label: 'Quantity', type: 'number' });
    await define({ key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'] });
    await define({ key: 'regions', label: 'Regions', type: 'multi-select', options: ['eu', 'us'] });
    await define({ key: 'urgent', label: 'Urgent', type: 'boolean' });
    await define({ key: 'seen_at', label: 'Seen at', type: 'datetime' });
    await define({ key: 'risk', label: 'Internal risk score', type: 'number', required: false });
    const form = await app.call('GET', `/help/${handle}/requests/new`, { query: { subject: 'Order' } });
    for (const control of [
      'name="cf.order_id"',
      'type="number"',
      '<option>pro</option>',
      'name="cf.regions[]"',
      'type="datetime-local"',
    ])
      expect(form.text).toContain(control);
    // A field the team did not require is its own: the public form does not show it.
    expect(form.text).not.toContain('Internal risk score');
    const email = uniqueAddress('fields');
    const missing = await send(handle, requestForm({ email, subject: 'Order', message: 'Where is it?' }));
    expect(missing.status).toBe(422);
    expect(missing.text).toContain('aria-describedby="cf-order_id-error"');
    const fields = requestForm({
      email,
      subject: 'Order',
      message: 'Where is it?',
      'cf.order_id': 'A-7',
      'cf.qty': '3',
      'cf.plan': 'pro',
      'cf.urgent': 'true',
      'cf.seen_at': '2026-11-26T09:30',
    });
    fields.append('cf.regions[]', 'eu');
    fields.append('cf.regions[]', 'us');
    expect((await send(handle, fields)).status).toBe(200);
    const [ticket] = await ticketsOf(t.liveKey, email);
    expect(ticket.customFields).toEqual({
      order_id: 'A-7',
      qty: 3,
      plan: 'pro',
      regions: ['eu', 'us'],
      urgent: true,
      seen_at: '2026-11-26T09:30:00.000Z',
    });
    const badPlan = requestForm({
      email,
      subject: 'Order',
      message: 'M',
      'cf.order_id': 'A-8',
      'cf.qty': '1',
      'cf.plan': 'gold',
      'cf.urgent': 'true',
      'cf.seen_at': '2026-11-26T09:30',
    });
    badPlan.append('cf.regions[]', 'eu');
    const refused = await send(handle, badPlan);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('aria-describedby="cf-plan-error"');
  });
});

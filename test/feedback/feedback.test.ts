import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { createTicket } from '../tickets/helpers.js';
import { startReceiver } from '../webhooks/receiver.js';

const app = await startTestApp();
// The emailed links point at this stack, as they do on a developer's `npm start`.
setEnv({ PUBLIC_BASE_URL: app.url });
afterEach(() => {
  vi.useRealTimers();
});

const unique = (tag = 'f') => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
}
const emailsTo = async (recipient: string): Promise<StoredEmail[]> => {
  const res = await fetch(`${inject('endpoints').ses}/store`);
  const { emails } = (await res.json()) as { emails: StoredEmail[] };
  return emails.filter((e) => e.destination.to.some((to) => to.includes(recipient)));
};
const linkIn = (email: StoredEmail) => {
  const m = /http:\/\/[^\s"'<>()]+\/api\/v1\/public\/feedback\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/.exec(
    `${email.body.text} ${email.body.html}`,
  );
  expect(m, 'the email carries the link').not.toBeNull();
  return m![0];
};
/** The public pages are HTML, outside the JSON contract: plain fetch. */
const page = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: await res.text(),
    headers: res.headers,
  };
};
const postForm = (url: string, fields: Record<string, string>) =>
  page(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const openConversation = async (t: TenantFixture, body: Record<string, unknown>) => {
  const res = await app.call('POST', '/feedback/conversations', { key: t.liveKey, body });
  expect(res.status).toBe(200);
  return res.body;
};

describe('plan gating', () => {
  it.each([
    'free',
    'starter',
  ] as const)('answers 403 plan.upgrade_required on every feedback route for %s', async (plan) => {
    const t = await createTenant({ plan });
    const id = randomUUID();
    const calls: [string, string, unknown?][] = [
      ['GET', '/feedback/conversations'],
      ['POST', '/feedback/conversations', { customer: { email: unique() }, body: 'Great' }],
      ['GET', `/feedback/conversations/${id}`],
      ['PATCH', `/feedback/conversations/${id}`, { status: 'closed' }],
      ['POST', `/feedback/conversations/${id}/messages`, { body: 'Thanks' }],
      ['GET', '/feedback/requests'],
      ['POST', '/feedback/requests', { customer: { email: unique() } }],
      ['GET', `/feedback/requests/${id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.call(method, path, { key: t.liveKey, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'plan.upgrade_required',
        details: { feature: 'Feedback', plan, requiredPlan: 'pro' },
      });
      expect(res.body.error.message).toContain('Feedback');
    }
    expect((await app.call('GET', '/customers', { key: t.liveKey })).body.total).toBe(0);
  });
});

describe('conversations', () => {
  it('opens a conversation: sentiment from the rating, else from the text; the customer enters the directory', async () => {
    const t = await createTenant();
    const email = unique();
    const rated = await openConversation(t, {
      customer: { email, name: 'Kim' },
      body: 'It was fine I guess',
      rating: 2,
      subject: 'Checkout',
    });
    expect(rated).toEqual({
      id: expect.any(String),
      customer: { email, name: 'Kim' },
      subject: 'Checkout',
      status: 'open',
      rating: 2,
      sentiment: 'negative',
      source: 'api',
      requestId: null,
      messages: [
        { id: expect.any(String), senderType: 'customer', body: 'It was fine I guess', createdAt: rated.createdAt },
      ],
      createdAt: expect.any(String),
      updatedAt: rated.createdAt,
    });
    const happy = await openConversation(t, {
      customer: { email: email.toUpperCase() },
      body: 'I love this product, amazing support!',
    });
    expect(happy).toMatchObject({
      rating: null,
      sentiment: 'positive',
      subject: 'I love this product, amazing support!',
    });
    expect((await openConversation(t, { customer: { email }, body: 'Terrible, broken and awful.' })).sentiment).toBe(
      'negative',
    );
    expect((await openConversation(t, { customer: { email }, body: 'The invoice arrived.' })).sentiment).toBe(
      'neutral',
    );
    expect((await openConversation(t, { customer: { email }, body: 'meh', rating: 3 })).sentiment).toBe('neutral');
    expect((await openConversation(t, { customer: { email }, body: 'awful', rating: 4 })).sentiment).toBe('positive');

    const customers = await app.call('GET', '/customers', { key: t.liveKey });
    expect(customers.body.customers).toMatchObject([{ email, name: 'Kim' }]);
    const detail = await app.call('GET', `/customers/${customers.body.customers[0].id}`, { key: t.liveKey });
    expect(detail.body.feedback).toHaveLength(6);
    expect(detail.body.feedback.at(-1)).toEqual({
      type: 'conversation',
      id: rated.id,
      status: 'open',
      subject: 'Checkout',
      rating: 2,
      sentiment: 'negative',
      createdAt: rated.createdAt,
    });

    const bad = await app.call('POST', '/feedback/conversations', {
      key: t.liveKey,
      body: { customer: { email }, body: 'x', rating: 6 },
    });
    expect(bad.status).toBe(422);
  });

  it('closes, reopens, lists by status, and refuses a reply while closed', async () => {
    const t = await createTenant();
    const a = await openConversation(t, { customer: { email: unique() }, body: 'first' });
    const b = await openConversation(t, { customer: { email: unique() }, body: 'second' });

    const closed = await app.call('PATCH', `/feedback/conversations/${a.id}`, {
      key: t.liveKey,
      body: { status: 'closed' },
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ id: a.id, status: 'closed', messages: [{ body: 'first' }] });

    const list = async (status?: string) =>
      (await app.call('GET', '/feedback/conversations', { key: t.liveKey, query: { status } })).body;
    expect((await list()).conversations.map((c: { id: string }) => c.id)).toEqual([b.id, a.id]);
    expect(await list('closed')).toMatchObject({
      conversations: [{ id: a.id, status: 'closed' }],
      total: 1,
      page: 1,
      limit: 25,
    });
    expect((await list('open')).conversations.map((c: { id: string }) => c.id)).toEqual([b.id]);
    expect((await list('open,closed')).total).toBe(2);
    expect(
      (await app.call('GET', '/feedback/conversations', { key: t.liveKey, query: { status: 'done' } })).status,
    ).toBe(422);

    const refused = await app.call('POST', `/feedback/conversations/${a.id}/messages`, {
      key: t.liveKey,
      body: { body: 'hello?' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('feedback.conversation_closed');

    const reopened = await app.call('PATCH', `/feedback/conversations/${a.id}`, {
      key: t.liveKey,
      body: { status: 'open' },
    });
    expect(reopened.body.status).toBe('open');
    expect((await list('closed')).total).toBe(0);
  });

  it('emails a staff reply with a link to the read-only thread', async () => {
    const t = await createTenant();
    const email = unique('reply');
    const conv = await openConversation(t, {
      customer: { email },
      body: 'Where is my <b>order</b>?',
      subject: 'Order',
    });
    const reply = await app.call('POST', `/feedback/conversations/${conv.id}/messages`, {
      key: t.liveKey,
      body: { body: 'It ships tomorrow.' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.messages.map((m: { senderType: string; body: string }) => [m.senderType, m.body])).toEqual([
      ['customer', 'Where is my <b>order</b>?'],
      ['staff', 'It ships tomorrow.'],
    ]);
    const got = await app.call('GET', `/feedback/conversations/${conv.id}`, { key: t.liveKey });
    expect(got.body).toEqual(reply.body);

    await app.drain();
    const [mail] = await emailsTo(email);
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Re: Order');
    expect(mail!.body.text).toContain('It ships tomorrow.');
    const thread = await page(linkIn(mail!));
    expect(thread.status).toBe(200);
    expect(thread.type).toContain('text/html');
    expect(thread.text).toContain('It ships tomorrow.');
    expect(thread.text).toContain('Where is my &lt;b&gt;order&lt;/b&gt;?');
    // a thread link is not a rating link
    expect((await postForm(linkIn(mail!), { rating: '5' })).status).toBe(404);
  });
});

describe('the rating funnel', () => {
  it("refuses a ticketId that names no ticket of the project and environment (another account's, sandbox's, none), mailing nothing", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const theirs = await createTicket(app, other.liveKey, { subject: 'Not yours', customer: { email: unique('x') } });
    const sandboxed = await createTicket(app, t.sandboxKey, { subject: 'Sandbox', customer: { email: unique('x') } });
    const email = unique('stray');
    for (const ticketId of [randomUUID(), theirs.id, sandboxed.id]) {
      const res = await app.call('POST', '/feedback/requests', {
        key: t.liveKey,
        body: { customer: { email }, ticketId },
      });
      expect([res.status, res.body.error.code, res.body.error.details]).toEqual([
        422,
        'feedback.ticket_not_found',
        { field: 'ticketId' },
      ]);
    }
    await app.drain();
    expect(await emailsTo(email)).toHaveLength(0);
    const list = await app.call('GET', '/feedback/requests', { key: t.liveKey });
    expect(list.body.requests).toHaveLength(0);
  });

  it('request -> email -> page -> rating -> conversation and feedback.submitted; the link is single use', async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: receiver.url, events: ['feedback.submitted'] },
    });
    const email = unique('funnel');
    const { id: ticketId } = await createTicket(app, t.liveKey, { subject: 'Resolved one', customer: { email } });

    const created = await app.call('POST', '/feedback/requests', {
      key: t.liveKey,
      body: { customer: { email, name: 'Rae' }, ticketId, message: 'Your ticket was resolved.' },
    });
    expect(created.status).toBe(200);
    const request = created.body;
    expect(request).toMatchObject({
      customer: { email, name: 'Rae' },
      ticketId,
      message: 'Your ticket was resolved.',
      status: 'sent',
      sentAt: expect.any(String),
      openedAt: null,
      respondedAt: null,
      expiredAt: null,
      emailId: expect.any(String),
    });

    await app.drain();
    const mails = await emailsTo(email);
    expect(mails).toHaveLength(1);
    const link = linkIn(mails[0]!);
    expect(link.startsWith(`${app.url}/api/v1/public/feedback/`)).toBe(true);

    const form = await page(link);
    expect(form.status).toBe(200);
    expect(form.type).toBe('text/html; charset=utf-8');
    expect(form.headers.get('referrer-policy')).toBe('no-referrer');
    expect(form.text).toContain('Your ticket was resolved.');
    expect(form.text).toMatch(/<form method="post">/);
    for (const n of [1, 2, 3, 4, 5]) expect(form.text).toContain(`name="rating" value="${n}"`);
    expect(form.text).toContain('name="comment"');

    const opened = await app.call('GET', `/feedback/requests/${request.id}`, { key: t.liveKey });
    expect(opened.body).toMatchObject({ status: 'opened', openedAt: expect.any(String) });
    // opening again keeps the first time
    await page(link);
    expect((await app.call('GET', `/feedback/requests/${request.id}`, { key: t.liveKey })).body.openedAt).toBe(
      opened.body.openedAt,
    );

    // A comment is text someone reads: control characters are refused, and the request still waits.
    expect((await postForm(link, { rating: '2', comment: 'bell \u0007 esc \u001b[2J' })).status).toBe(422);
    const lone = await app.call('POST', link.slice(app.url.length), { body: { rating: 2, comment: 'lone \ud800' } });
    expect(lone.status).toBe(422);
    const thanks = await postForm(link, { rating: '2', comment: 'Took too long.' });
    expect(thanks.status).toBe(200);
    expect(thanks.type).toContain('text/html');
    expect(thanks.text).toContain('Thank you');

    const responded = (await app.call('GET', `/feedback/requests/${request.id}`, { key: t.liveKey })).body;
    expect(responded).toMatchObject({
      status: 'responded',
      rating: 2,
      respondedAt: expect.any(String),
      conversationId: expect.any(String),
    });
    const conversation = (
      await app.call('GET', `/feedback/conversations/${responded.conversationId}`, { key: t.liveKey })
    ).body;
    expect(conversation).toMatchObject({
      customer: { email, name: 'Rae' },
      rating: 2,
      sentiment: 'negative',
      source: 'request',
      requestId: request.id,
      status: 'open',
      messages: [{ senderType: 'customer', body: 'Took too long.' }],
    });

    await app.drain();
    await receiver.waitFor(1);
    expect(receiver.requests[0]!.json).toEqual({
      event: 'feedback.submitted',
      type: 'feedback.submitted',
      timestamp: expect.any(String),
      data: {
        conversation: {
          id: conversation.id,
          subject: conversation.subject,
          rating: 2,
          sentiment: 'negative',
          source: 'request',
        },
        customer: { email, name: 'Rae' },
        requestId: request.id,
        comment: 'Took too long.',
      },
    });

    // single use: the page, a second form post and a JSON post are all 404
    const again = await page(link);
    expect(again.status).toBe(404);
    expect(again.type).toContain('text/html');
    expect((await postForm(link, { rating: '5' })).status).toBe(404);
    const json = await app.call('POST', new URL(link).pathname, { body: { rating: 5 } });
    expect(json.status).toBe(404);
    expect(json.body.error.code).toBe('not_found');
    expect(
      (await app.call('GET', '/feedback/requests', { key: t.liveKey, query: { status: 'responded' } })).body.total,
    ).toBe(1);

    const customers = (await app.call('GET', '/customers', { key: t.liveKey })).body.customers;
    const detail = (await app.call('GET', `/customers/${customers[0].id}`, { key: t.liveKey })).body;
    expect(detail.feedback.map((f: { type: string; id: string }) => [f.type, f.id])).toEqual([
      ['conversation', conversation.id],
      ['request', request.id],
    ]);
    expect(detail.feedback[1]).toMatchObject({ status: 'responded', rating: 2 });
  });

  it('takes a JSON rating (answering the conversation), once, under concurrent submissions', async () => {
    const t = await createTenant();
    const email = unique('json');
    const request = (await app.call('POST', '/feedback/requests', { key: t.liveKey, body: { customer: { email } } }))
      .body;
    await app.drain();
    const path = new URL(linkIn((await emailsTo(email))[0]!)).pathname;

    const invalid = await app.call('POST', path, { body: { rating: 0 } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details.fields).toEqual([
      { field: 'rating', in: 'body', message: 'Expected an integer from 1 to 5' },
    ]);
    const formNine = await postForm(`${app.url}${path}`, { rating: '9' });
    expect(formNine.status).toBe(422);
    expect(formNine.text).toContain('rating: Expected an integer from 1 to 5');
    expect(formNine.text).not.toContain('Invalid type');
    const results = await Promise.all([5, 4, 5, 4].map((rating) => app.call('POST', path, { body: { rating } })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(3);
    expect(ok[0]!.body).toMatchObject({
      source: 'request',
      requestId: request.id,
      sentiment: 'positive',
      messages: [],
    });
    const list = await app.call('GET', '/feedback/conversations', { key: t.liveKey });
    expect(list.body.total).toBe(1);
  });

  it('answers 404 for forged, tampered or other-kind tokens', async () => {
    const t = await createTenant();
    const email = unique('forge');
    await app.call('POST', '/feedback/requests', { key: t.liveKey, body: { customer: { email } } });
    await app.drain();
    const link = linkIn((await emailsTo(email))[0]!);
    const [payload, signature] = link.split('/').at(-1)!.split('.');
    const forgedPayload = Buffer.from(`r:${t.projects.main!.id}:live:${randomUUID()}`).toString('base64url');
    for (const token of [
      `${forgedPayload}.${signature}`,
      `${payload}.${signature!.slice(0, -2)}AA`,
      'garbage',
      `${payload}`,
    ]) {
      const res = await page(`${app.url}/api/v1/public/feedback/${token}`);
      expect(res.status, token).toBe(404);
      expect((await app.call('POST', `/api/v1/public/feedback/${token}`, { body: { rating: 3 } })).status).toBe(404);
    }
  });

  it('expires an unanswered request after 30 days', async () => {
    const t = await createTenant();
    const email = unique('expire');
    const request = (await app.call('POST', '/feedback/requests', { key: t.liveKey, body: { customer: { email } } }))
      .body;
    await app.drain();
    const link = linkIn((await emailsTo(email))[0]!);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(request.sentAt) + 29 * 86_400_000 });
    expect((await app.call('GET', `/feedback/requests/${request.id}`, { key: t.liveKey })).body.status).toBe('sent');
    vi.setSystemTime(Date.parse(request.sentAt) + 30 * 86_400_000 + 1000);
    const expired = (await app.call('GET', `/feedback/requests/${request.id}`, { key: t.liveKey })).body;
    expect(expired).toMatchObject({
      status: 'expired',
      expiredAt: new Date(Date.parse(request.sentAt) + 30 * 86_400_000).toISOString(),
    });
    const list = async (status: string) =>
      (await app.call('GET', '/feedback/requests', { key: t.liveKey, query: { status } })).body.total;
    expect(await list('expired')).toBe(1);
    expect(await list('sent')).toBe(0);
    expect((await page(link)).status).toBe(404);
    expect((await postForm(link, { rating: '5' })).status).toBe(404);
  });
});

describe('tenancy', () => {
  it('answers 404 for conversation and request ids of another project or environment', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const one = { key: t.liveKey, headers: { 'Service-Project': 'one' } };
    const conv = (
      await app.call('POST', '/feedback/conversations', { ...one, body: { customer: { email: unique() }, body: 'hi' } })
    ).body;
    const req = (await app.call('POST', '/feedback/requests', { ...one, body: { customer: { email: unique() } } }))
      .body;
    for (const headers of [
      { 'Service-Project': 'two' },
      { 'Service-Project': 'one', 'Service-Environment': 'sandbox' },
    ] as Record<string, string>[]) {
      const opts = { key: t.liveKey, headers };
      expect((await app.call('GET', `/feedback/conversations/${conv.id}`, opts)).status).toBe(404);
      expect(
        (await app.call('PATCH', `/feedback/conversations/${conv.id}`, { ...opts, body: { status: 'closed' } })).status,
      ).toBe(404);
      expect(
        (await app.call('POST', `/feedback/conversations/${conv.id}/messages`, { ...opts, body: { body: 'x' } }))
          .status,
      ).toBe(404);
      expect((await app.call('GET', `/feedback/requests/${req.id}`, opts)).status).toBe(404);
      expect((await app.call('GET', '/feedback/requests', opts)).body.total).toBe(0);
      expect((await app.call('GET', '/feedback/conversations', opts)).body.total).toBe(0);
    }
    expect((await app.call('GET', `/feedback/requests/${req.id}`, one)).status).toBe(200);
    expect((await app.call('GET', `/feedback/conversations/${randomUUID()}`, one)).status).toBe(404);
  });
});

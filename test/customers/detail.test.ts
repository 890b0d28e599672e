import { randomBytes, randomUUID } from 'node:crypto';
import { readCustomerHistory } from '@helpdesk/core/areas/customer-profile/history';
import { CustomerTicket } from '@helpdesk/core/areas/tickets/entities';
import { dynamo } from '@helpdesk/core/kernel/db/client';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';

let recording: string[] | undefined;
dynamo.middlewareStack.add(
  (next, context) => (args) => {
    recording?.push((context.commandName ?? 'unknown').replace(/Command$/, ''));
    return next(args);
  },
  { step: 'initialize', name: 'countCustomerRequests' },
);

async function measure<T>(call: () => Promise<T>) {
  recording = [];
  try {
    return { result: await call(), requests: recording };
  } finally {
    recording = undefined;
  }
}

// Consumers off: every request counted is one the API call itself made.
const app = await startTestApp({ consumers: false });
const unique = () => `d-${randomBytes(4).toString('hex')}@example.com`;

async function post(_t: TenantFixture, key: string, path: string, body: Record<string, unknown>) {
  const res = await app.call('POST', path, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function customerId(t: TenantFixture, email: string) {
  const { body } = await app.call('GET', '/customers', { key: t.liveKey, query: { search: email } });
  return body.customers[0].id as string;
}

describe('GET /customers/{id}: one Query on the customer partition', () => {
  it('reads the record, its tickets and its feedback with at most 2 requests (rate limit and one Query)', async () => {
    const t = await createTenant({ plan: 'pro' });
    const email = unique();
    const ticket = await post(t, t.liveKey, '/tickets', { subject: 'Broken', body: 'It broke', customer: { email } });
    const conversation = await post(t, t.liveKey, '/feedback/conversations', {
      customer: { email },
      body: 'Great help',
      rating: 5,
    });
    const request = await post(t, t.liveKey, '/feedback/requests', { customer: { email } });
    const id = await customerId(t, email);
    await app.call('GET', `/customers/${id}`, { key: t.liveKey });
    const { result, requests } = await measure(() => app.call('GET', `/customers/${id}`, { key: t.liveKey }));
    expect(result.status).toBe(200);
    expect(requests.length, requests.join(', ')).toBeLessThanOrEqual(2);
    expect(requests.filter((r) => r !== 'UpdateItem')).toEqual(['Query']);
    expect(result.body).toMatchObject({ id, email, ticketCount: 1 });
    expect(result.body.tickets).toEqual([
      { id: ticket.id, number: ticket.number, subject: 'Broken', status: 'new', createdAt: ticket.createdAt },
    ]);
    expect(result.body.feedback).toEqual([
      {
        type: 'request',
        id: request.id,
        status: 'sent',
        subject: null,
        rating: null,
        sentiment: null,
        createdAt: request.createdAt,
      },
      {
        type: 'conversation',
        id: conversation.id,
        status: 'open',
        subject: 'Great help',
        rating: 5,
        sentiment: 'positive',
        createdAt: conversation.createdAt,
      },
    ]);
  });

  it('lists the latest 20 of each kind, newest first, with statuses kept in step', async () => {
    const t = await createTenant({ plan: 'pro' });
    const key = await t.key({ rateLimit: 1000 });
    const email = unique();
    const tickets = [];
    const conversations = [];
    for (let i = 0; i < 22; i++) {
      tickets.push(await post(t, key, '/tickets', { subject: `Ticket ${i}`, body: 'Body', customer: { email } }));
      conversations.push(await post(t, key, '/feedback/conversations', { customer: { email }, body: `Feedback ${i}` }));
    }
    const newest = tickets.at(-1);
    expect((await app.call('PATCH', `/tickets/${newest.id}`, { key, body: { status: 'pending' } })).status).toBe(200);
    // A staff reply moves the ticket from new to open, in the same write as its copy.
    expect((await post(t, key, `/tickets/${tickets.at(-2).id}/messages`, { body: 'On it' })).id).toBeDefined();
    expect(
      (
        await app.call('PATCH', `/feedback/conversations/${conversations.at(-1).id}`, {
          key,
          body: { status: 'closed' },
        })
      ).body.status,
    ).toBe('closed');

    const id = await customerId(t, email);
    const detail = (await app.call('GET', `/customers/${id}`, { key })).body;
    expect(detail.ticketCount).toBe(22);
    expect(detail.tickets.map((x: { id: string }) => x.id)).toEqual(
      tickets
        .slice(2)
        .reverse()
        .map((x) => x.id),
    );
    expect(detail.tickets.slice(0, 3).map((x: { status: string }) => x.status)).toEqual(['pending', 'open', 'new']);
    expect(detail.feedback.map((x: { id: string }) => x.id)).toEqual(
      conversations
        .slice(2)
        .reverse()
        .map((x) => x.id),
    );
    expect(detail.feedback[0]).toMatchObject({ status: 'closed', subject: 'Feedback 21' });
    expect(detail.feedback[1].status).toBe('open');
  });

  it('reads further only while one kind is short and the partition holds more', async () => {
    const t = await createTenant({ plan: 'pro' });
    const key = await t.key({ rateLimit: 1000 });
    const email = unique();
    const old = await post(t, key, '/feedback/conversations', { customer: { email }, body: 'Old feedback' });
    const id = await customerId(t, email);
    const ref = { projectId: t.projects.main!.id, env: 'live' as const };
    // The copies a ticket create leaves under its customer, written as they are: this reads pages, and 110
    // creates of one customer's tickets (each moving the customer's record) took most of a minute under load.
    const after = Date.now() + 1000;
    await CustomerTicket.put(
      Array.from({ length: 110 }, (_, i) => ({
        ...ref,
        customerId: id,
        ticketId: randomUUID(),
        number: i + 1,
        subject: `T${i}`,
        status: 'new' as const,
        createdAt: new Date(after + i * 1000).toISOString(),
      })),
    ).go();
    const { result, requests } = await measure(() => readCustomerHistory(ref, id, 20));
    expect(result.tickets.map((c) => c.subject)).toEqual(Array.from({ length: 20 }, (_, i) => `T${109 - i}`));
    expect(result.feedback.map((f) => f.feedbackId)).toEqual([old.id]);
    expect(requests).toEqual(['Query', 'Query']);
  });
});

describe('DELETE /customers/{id} removes the copies', () => {
  it('deletes the ticket and feedback copies; their tickets and conversations still change status', async () => {
    const t = await createTenant({ plan: 'pro' });
    const email = unique();
    const ticket = await post(t, t.liveKey, '/tickets', { subject: 'Stays', body: 'B', customer: { email } });
    const conversation = await post(t, t.liveKey, '/feedback/conversations', {
      customer: { email },
      body: 'Stays too',
    });
    const request = await post(t, t.liveKey, '/feedback/requests', { customer: { email } });
    const id = await customerId(t, email);
    expect((await app.call('DELETE', `/customers/${id}`, { key: t.liveKey })).status).toBe(200);
    const ref = { projectId: t.projects.main!.id, env: 'live' as const };
    expect(await readCustomerHistory(ref, id, 20)).toEqual({ customer: null, tickets: [], feedback: [] });

    // The changes commit without the customer's copies, and leave none behind.
    const patched = await app.call('PATCH', `/tickets/${ticket.id}`, { key: t.liveKey, body: { status: 'closed' } });
    expect(patched.body.status).toBe('closed');
    const closed = await app.call('PATCH', `/feedback/conversations/${conversation.id}`, {
      key: t.liveKey,
      body: { status: 'closed' },
    });
    expect(closed.body.status).toBe('closed');
    expect((await app.call('GET', `/feedback/requests/${request.id}`, { key: t.liveKey })).body.status).toBe('sent');
    expect(await readCustomerHistory(ref, id, 20)).toEqual({ customer: null, tickets: [], feedback: [] });
  });
});

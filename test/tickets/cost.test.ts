import { createTicket as createTicketCore } from '@helpdesk/core/areas/tickets/create';
import { dynamo } from '@helpdesk/core/kernel/db/client';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { createTicket, customerEmail, tenantContext } from './helpers.js';

interface Request {
  command: string;
  /** Read capacity units consumed (reads only), as DynamoDB reports them. */
  readUnits: number;
}
let recording: Request[] | undefined;
dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    const command = context.commandName ?? 'unknown';
    const read = /^(Query|Scan|GetItem|BatchGetItem|TransactGetItems)Command$/.test(command);
    if (recording && read) (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
    const result = await next(args);
    if (recording) {
      const out = result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] };
      const capacity = [out.ConsumedCapacity ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      recording.push({ command: command.replace(/Command$/, ''), readUnits: read ? capacity : 0 });
    }
    return result;
  },
  { step: 'initialize', name: 'countRequests' },
);

/** The DynamoDB requests one API call makes. */
async function measure<T>(call: () => Promise<T>) {
  recording = [];
  try {
    const result = await call();
    return { result, requests: recording };
  } finally {
    recording = undefined;
  }
}

const expectAtMost = (requests: Request[], n: number) =>
  expect(requests.length, requests.map((r) => r.command).join(', ')).toBeLessThanOrEqual(n);

// Events and reply emails stay on their queues (their consumers read the table): every request counted
// below is one the API call itself made, the live reply's Email Logs row included.
const app = await startTestApp({ consumers: false });

describe('DynamoDB requests per call (key cache warm)', () => {
  it('POST /tickets takes at most 4, for a new and for a known customer, with tags', async () => {
    const t = await createTenant();
    await createTicket(app, t.liveKey);
    const email = customerEmail();
    const body = { subject: 'Counting', body: 'How many requests?', customer: { email }, tags: ['a', 'b'] };
    const first = await measure(() => app.call('POST', '/tickets', { key: t.liveKey, body }));
    expect(first.result.status).toBe(200);
    expectAtMost(first.requests, 4);
    const second = await measure(() => app.call('POST', '/tickets', { key: t.liveKey, body }));
    expect(second.result.status).toBe(200);
    expectAtMost(second.requests, 4);
    const customers = await app.call('GET', '/customers', { key: t.liveKey, query: { search: email } });
    expect(customers.body.customers).toMatchObject([{ email, ticketCount: 2 }]);
  });

  it('POST /tickets/{id}/messages takes at most 3, whether or not the ticket changes list partitions', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    // new/customer -> open/staff: the counts move in the same write.
    const reply = await measure(() =>
      app.call('POST', `/tickets/${c.id}/messages`, { key: t.liveKey, body: { body: 'Hello' } }),
    );
    expect(reply.result.status).toBe(200);
    expectAtMost(reply.requests, 3);
    // The live reply's email was part of those requests: its Email Logs row is there, queued.
    const emails = await app.call('GET', '/emails', { key: t.liveKey });
    expect(emails.body.emails).toMatchObject([
      { to: c.customer.email, subject: expect.stringContaining('Re: '), status: 'queued' },
    ]);
    const note = await measure(() =>
      app.call('POST', `/tickets/${c.id}/messages`, { key: t.liveKey, body: { body: 'Note', visibility: 'internal' } }),
    );
    expect(note.result.status).toBe(200);
    expectAtMost(note.requests, 3);
    const list = await app.call('GET', '/tickets', { key: t.liveKey, query: { status: 'open' } });
    expect(list.body).toMatchObject({ total: 1, tickets: [{ id: c.id, lastSenderType: 'staff' }] });
    expect((await app.call('GET', '/tickets', { key: t.liveKey, query: { status: 'new' } })).body.total).toBe(0);
  });

  it('GET /tickets/{id} takes at most 2 (rate limit and one Query)', async () => {
    const t = await createTenant();
    const c = await createTicket(app, t.liveKey);
    const detail = await measure(() => app.call('GET', `/tickets/${c.id}`, { key: t.liveKey }));
    expect(detail.result.status).toBe(200);
    expectAtMost(detail.requests, 2);
  });
});

describe('search read cost', () => {
  it('reads at most 200 bytes per ticket of the project, then only the page of full tickets', async () => {
    const t = await createTenant();
    const key = await t.key({ rateLimit: 1000 });
    const ctx = await tenantContext(t);
    // Enough that reading the matches at full size (~1.3 KB a ticket) reads ten times what compact items do.
    const tickets = 100;
    for (let i = 0; i < tickets; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          createTicketCore(ctx, {
            subject: `Cannot export the monthly report number ${i + j}`,
            body: 'The export button does nothing.',
            customer: { email: `someone-${(i + j) % 40}@example.com` },
          }),
        ),
      );
    }
    await app.call('GET', '/tickets', { key, query: { limit: 1 } });
    // Matches every ticket: the worst case for a design that reads the matches at full size.
    const { result, requests } = await measure(() =>
      app.call('GET', '/tickets', { key, query: { search: 'REPORT', limit: 25 } }),
    );
    expect(result.body.total).toBe(tickets);
    expect(result.body.tickets).toHaveLength(25);
    // Eventually consistent reads: one capacity unit per 8 KB (BatchGetItem rounds each item up to 4 KB).
    const units = (command: string) =>
      requests.filter((r) => r.command === command).reduce((n, r) => n + r.readUnits, 0);
    // A Query page is billed in 4 KB steps: the bytes it read are more than its units less one step.
    const queries = requests.filter((r) => r.command === 'Query').length;
    const searchBytesPerTicket = (units('Query') * 8192 - queries * 4096) / tickets;
    expect(units('Query')).toBeGreaterThan(0);
    expect(searchBytesPerTicket).toBeLessThanOrEqual(200);
    // Full tickets: only the page's, in one BatchGetItem.
    expect(requests.filter((r) => r.command === 'BatchGetItem')).toHaveLength(1);
    expect(units('BatchGetItem')).toBeLessThanOrEqual(25 * 0.5);
    // Nothing else: the rate limit counts this key in the instance (well under its limit, no write).
    expect(requests.map((r) => r.command).filter((c) => c !== 'Query' && c !== 'BatchGetItem')).toEqual([]);
  }, 300_000);
});

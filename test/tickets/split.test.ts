import { SPLIT_LIMIT } from '@helpdesk/core/areas/tickets/values';
import { describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from './event-spy.js';
import { createTicket } from './helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) => (await import('./event-spy.js')).spiedRelay(original));

const app = await startTestApp();

/** A ticket whose thread is: the customer's first message, a staff reply, a customer message with a file, a note. */
async function thread(t: TenantFixture) {
  const ticket = await createTicket(app, t.liveKey, { priority: 'high', category: 'billing' });
  const post = async (body: Record<string, unknown>) =>
    (await app.call('POST', `/tickets/${ticket.id}/messages`, { key: t.liveKey, body })).body;
  const reply = await post({ body: 'We are on it.' });
  const second = await post({
    body: 'Also: my invoice is wrong.',
    senderType: 'customer',
    attachments: [
      { fileName: 'invoice.txt', mimeType: 'text/plain', content: Buffer.from('total 12').toString('base64') },
    ],
  });
  const note = await post({ body: 'Billing issue, separate.', visibility: 'internal' });
  const detail = (await app.call('GET', `/tickets/${ticket.id}`, { key: t.liveKey })).body;
  return { ticket, first: detail.messages[0], reply, second, note };
}

const detail = async (t: TenantFixture, id: string) =>
  (await app.call('GET', `/tickets/${id}`, { key: t.liveKey })).body;
const split = (
  t: TenantFixture,
  ticketId: string,
  messageId: string,
  body: Record<string, unknown> = {},
  key = t.liveKey,
) => app.call('POST', `/tickets/${ticketId}/messages/${messageId}/split`, { key, body });

describe('POST /tickets/{id}/messages/{messageId}/split', () => {
  it('moves a customer message and the later ones to a new ticket of the same customer, linked both ways', async () => {
    const t = await createTenant();
    const { ticket, first, reply, second, note } = await thread(t);
    const res = await split(t, ticket.id, second.id, { includeLater: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ splitFrom: ticket.id, movedMessages: [second.id, note.id], priority: 'high' });
    expect(res.body.number).toBeGreaterThan(ticket.number);
    const created = await detail(t, res.body.id);
    expect(created.messages.map((m: { id: string }) => m.id)).toEqual([second.id, note.id]);
    expect(created).toMatchObject({
      splitFrom: ticket.id,
      category: 'billing',
      customer: ticket.customer,
      status: 'new',
    });
    expect(created.messages[0].attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['invoice.txt']);
    const file = await fetch(created.messages[0].attachments[0].url);
    expect(await file.text()).toBe('total 12');
    const source = await detail(t, ticket.id);
    expect(source.messages.map((m: { id: string }) => m.id)).toEqual([first.id, reply.id]);
    expect(source.splitInto).toEqual([res.body.id]);
    expect(source).toMatchObject({ lastSenderType: 'staff', lastMessageAt: reply.createdAt });
    // The new ticket's last message is the note it took, at the note's time (not the split's).
    expect(created).toMatchObject({ lastSenderType: 'staff', lastMessageAt: note.createdAt });
    const events = (await emitted(app)).filter((e) => e.name === 'ticket.created' && e.data.ticket.id === res.body.id);
    expect(events.map((e) => e.data.source)).toEqual(['split']);
  });

  it('moves only the message without includeLater', async () => {
    const t = await createTenant();
    const { ticket, second, note } = await thread(t);
    const res = await split(t, ticket.id, second.id);
    const created = await detail(t, res.body.id);
    expect(created.messages.map((m: { id: string }) => m.id)).toEqual([second.id]);
    expect(created).toMatchObject({ status: 'new', lastSenderType: 'customer', lastMessageAt: second.createdAt });
    const source = await detail(t, ticket.id);
    expect(source.messages.map((m: { id: string }) => m.id)).toContain(note.id);
    // The note it keeps is its last message: a staff one, so the source no longer awaits a reply.
    expect(source).toMatchObject({ lastSenderType: 'staff', lastMessageAt: note.createdAt });
  });

  it('opens the new ticket when a public staff reply moves with the message, and it awaits no reply', async () => {
    const t = await createTenant();
    const ticket = await createTicket(app, t.liveKey);
    const post = async (body: Record<string, unknown>) =>
      (await app.call('POST', `/tickets/${ticket.id}/messages`, { key: t.liveKey, body })).body;
    const asked = await post({ body: 'A second question.', senderType: 'customer' });
    const answer = await post({ body: 'Here is the answer.' });
    const res = await split(t, ticket.id, asked.id, { includeLater: true });
    expect(res.status).toBe(200);
    expect(await detail(t, res.body.id)).toMatchObject({
      status: 'open',
      lastSenderType: 'staff',
      lastMessageAt: answer.createdAt,
    });
    const waiting = await app.call('GET', '/tickets', { key: t.liveKey, query: { awaitingReply: true } });
    expect(waiting.body.tickets.map((r: { id: string }) => r.id)).toEqual([ticket.id]);
    // Both are open: the source since the reply it had, the new ticket since the reply it took.
    const open = await app.call('GET', '/tickets', { key: t.liveKey, query: { status: 'open' } });
    expect(open.body.tickets.map((r: { id: string }) => r.id).sort()).toEqual([ticket.id, res.body.id].sort());
    expect((await app.call('GET', '/tickets', { key: t.liveKey, query: { status: 'new' } })).body.total).toBe(0);
  });

  it('refuses a staff reply, a note, a split of everything, and ids it cannot see', async () => {
    const t = await createTenant();
    const { ticket, first, reply, note } = await thread(t);
    expect((await split(t, ticket.id, reply.id)).body.error.code).toBe('ticket.split_not_customer');
    expect((await split(t, ticket.id, note.id)).body.error.code).toBe('ticket.split_not_customer');
    const all = await split(t, ticket.id, first.id, { includeLater: true });
    expect(all.status).toBe(422);
    expect(all.body.error.code).toBe('ticket.split_everything');
    expect((await split(t, ticket.id, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const other = await createTenant();
    expect((await split(other, ticket.id, first.id, {}, other.liveKey)).status).toBe(404);
    expect((await split(t, ticket.id, first.id, {}, t.sandboxKey)).status).toBe(404);
    expect((await split(t, ticket.id, first.id, { includeLater: 'yes' })).status).toBe(422);
    // Nothing moved.
    expect((await detail(t, ticket.id)).messages).toHaveLength(4);
  });

  it(`moves up to ${SPLIT_LIMIT} messages and files in one transaction, and refuses more`, async () => {
    const t = await createTenant();
    const ticket = await createTicket(app, t.liveKey);
    const ids: string[] = [];
    for (let i = 0; i <= SPLIT_LIMIT; i++) {
      const res = await app.call('POST', `/tickets/${ticket.id}/messages`, {
        key: t.liveKey,
        body: { body: `Message ${i}`, senderType: 'customer' },
      });
      ids.push(res.body.id);
    }
    const tooMany = await split(t, ticket.id, ids[0]!, { includeLater: true });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error).toMatchObject({ code: 'ticket.split_too_large', details: { limit: SPLIT_LIMIT } });
    const res = await split(t, ticket.id, ids[1]!, { includeLater: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.movedMessages).toHaveLength(SPLIT_LIMIT);
    expect((await detail(t, res.body.id)).messages).toHaveLength(SPLIT_LIMIT);
    expect((await detail(t, ticket.id)).messages.map((m: { id: string }) => m.id)).toHaveLength(2);
  }, 60_000);
});

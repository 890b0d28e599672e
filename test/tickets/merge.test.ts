import { Ticket } from '@helpdesk/core/areas/tickets/entities';
import { MERGED_PER_TICKET, UNMERGE_DAYS } from '@helpdesk/core/areas/tickets/values';
import { ticketPageLink } from '@helpdesk/core/kernel/links/ticket-page';
import { replyAddress } from '@helpdesk/core/kernel/mail/reply-address';
import nodemailer from 'nodemailer';
import { describe, expect, it, vi } from 'vitest';
import { LOCAL_AUTH_HEADER } from '../../packages/local/src/smtp.js';
import { mailsTo } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from './event-spy.js';
import { createTicket, customerEmail } from './helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) => (await import('./event-spy.js')).spiedRelay(original));

const app = await startTestApp();
const smtp = nodemailer.createTransport({ host: app.smtp.host, port: app.smtp.port, secure: false, ignoreTLS: true });

type Detail = {
  id: string;
  number: number;
  status: string;
  mergedInto: string | null;
  mergedAt: string | null;
  mergedFrom: string[];
  otherCustomers: { email: string; name: string }[];
  tags: string[];
  messages: { id: string; ticketId: string; body: string; senderType: string; visibility: string }[];
};

const detail = async (t: TenantFixture, id: string, key = t.liveKey) =>
  (await app.call('GET', `/tickets/${id}`, { key })).body as Detail;
const merge = (t: TenantFixture, id: string, into: string, key = t.liveKey, headers?: Record<string, string>) =>
  app.call('POST', `/tickets/${id}/merge`, { key, body: { into }, headers });
const unmerge = (t: TenantFixture, id: string) => app.call('POST', `/tickets/${id}/unmerge`, { key: t.liveKey });
const post = (t: TenantFixture, id: string, body: Record<string, unknown>) =>
  app.call('POST', `/tickets/${id}/messages`, { key: t.liveKey, body });

/** Two tickets of different customers: the source has a staff reply (so a reply mail), a tag and a file. */
async function pair(t: TenantFixture) {
  const sourceEmail = customerEmail('src');
  const source = await createTicket(app, t.liveKey, {
    subject: 'Refund please',
    body: 'I was charged twice.',
    customer: { email: sourceEmail, name: 'Sam' },
    tags: ['billing', 'VIP'],
  });
  await post(t, source.id, {
    body: 'Looking at it.',
    attachments: [{ fileName: 'receipt.txt', mimeType: 'text/plain', content: Buffer.from('paid').toString('base64') }],
  });
  const target = await createTicket(app, t.liveKey, {
    subject: 'Double charge',
    body: 'Same problem here.',
    customer: { email: customerEmail('tgt'), name: 'Tia' },
    tags: ['vip'],
  });
  await app.call('PATCH', `/tickets/${source.id}`, { key: t.liveKey, body: { status: 'pending' } });
  return { source, target, sourceEmail };
}

describe('POST /tickets/{id}/merge', () => {
  it("shows the source's thread, files, tags and customer on the target; the source is closed and names it", async () => {
    const t = await createTenant();
    const { source, target, sourceEmail } = await pair(t);
    const before = await detail(t, source.id);
    const res = await merge(t, source.id, target.id);
    expect(res.status, res.text).toBe(200);
    const merged = res.body as Detail;
    expect(merged).toMatchObject({ id: target.id, mergedFrom: [source.id], mergedInto: null });
    expect(merged.otherCustomers).toEqual([{ email: sourceEmail, name: 'Sam' }]);
    expect(merged.tags).toEqual(['vip', 'billing']);
    // Every message of both, in time order, each naming its ticket; a note in each thread records it.
    const times = merged.messages.map((m) => m.id);
    expect(times).toEqual(expect.arrayContaining(before.messages.map((m) => m.id)));
    const own = merged.messages.filter((m) => m.ticketId === target.id);
    const moved = merged.messages.filter((m) => m.ticketId === source.id);
    expect(moved.map((m) => m.body)).toEqual([
      'I was charged twice.',
      'Looking at it.',
      `Merged into ticket #${target.number}.`,
    ]);
    expect(own.map((m) => m.body)).toEqual([
      'Same problem here.',
      `Ticket #${source.number} was merged into this ticket.`,
    ]);
    expect(merged.messages.at(-1)!.visibility).toBe('internal');
    const file = merged.messages.find((m) => m.body === 'Looking at it.') as unknown as {
      attachments: { url: string }[];
    };
    expect(await (await fetch(file.attachments[0]!.url)).text()).toBe('paid');

    const after = await detail(t, source.id);
    expect(after).toMatchObject({ status: 'closed', mergedInto: target.id, mergedFrom: [] });
    expect(Date.parse(after.mergedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const events = (await emitted(app)).filter((e) => e.name === 'ticket.merged' && e.data.ticket.id === target.id);
    expect(events.map((e) => e.data.source)).toEqual([{ id: source.id, number: source.number }]);
  });

  it("takes the source's last message when it is later: a waiting customer stays waiting; unmerge gives it back", async () => {
    const t = await createTenant();
    const target = await createTicket(app, t.liveKey, { subject: 'Login', body: 'I cannot log in.' });
    const answer = (await post(t, target.id, { body: 'Try resetting your password.' })).body;
    const source = await createTicket(app, t.liveKey, { subject: 'Login again', body: 'Still locked out.' });
    const row = async (id: string) =>
      (await app.call('GET', '/tickets', { key: t.liveKey, query: { number: (await detail(t, id)).number } })).body
        .tickets[0];
    const waiting = async () =>
      (await app.call('GET', '/tickets', { key: t.liveKey, query: { awaitingReply: true } })).body.tickets.map(
        (r: { id: string }) => r.id,
      );
    const sourceLast = (await row(source.id)).lastMessageAt;
    expect(await waiting()).toEqual([source.id]);
    expect((await merge(t, source.id, target.id)).status).toBe(200);
    // The merge's own notes are records: the customer's message is the thread's last one.
    expect(await row(target.id)).toMatchObject({ lastSenderType: 'customer', lastMessageAt: sourceLast });
    expect(await waiting()).toEqual([target.id]);
    expect((await unmerge(t, source.id)).status).toBe(200);
    expect(await row(target.id)).toMatchObject({ lastSenderType: 'staff', lastMessageAt: answer.createdAt });
    expect(await waiting()).toEqual([source.id]);
  });

  it('makes the source read-only: every write is 409 ticket.merged naming the target', async () => {
    const t = await createTenant();
    const { source, target } = await pair(t);
    await merge(t, source.id, target.id);
    const first = (await detail(t, source.id)).messages[0]!;
    const other = await createTicket(app, t.liveKey);
    const writes = [
      app.call('PATCH', `/tickets/${source.id}`, { key: t.liveKey, body: { status: 'open' } }),
      post(t, source.id, { body: 'More.' }),
      app.call('POST', `/tickets/${source.id}/tags`, { key: t.liveKey, body: { tag: 'x' } }),
      app.call('DELETE', `/tickets/${source.id}/tags`, { key: t.liveKey, query: { tag: 'billing' } }),
      app.call('DELETE', `/tickets/${source.id}`, { key: t.liveKey }),
      app.call('POST', `/tickets/${source.id}/messages/${first.id}/split`, { key: t.liveKey, body: {} }),
      merge(t, source.id, other.id),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status, res.text).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'ticket.merged', details: { mergedInto: target.id } });
    }
    expect(await detail(t, source.id)).toMatchObject({ status: 'closed', tags: ['billing', 'VIP'] });
    // The target's own message cannot be split from a merged ticket's.
    const moved = (await detail(t, target.id)).messages.find((m) => m.ticketId === source.id)!;
    const split = await app.call('POST', `/tickets/${target.id}/messages/${moved.id}/split`, {
      key: t.liveKey,
      body: {},
    });
    expect(split.status).toBe(422);
    expect(split.body.error).toMatchObject({ code: 'ticket.split_merged_message', details: { ticketId: source.id } });
  });

  it("sends replies to the target's customer with the source's in Cc, and old mail and links reach the target", async () => {
    const t = await createTenant();
    const { source, target, sourceEmail } = await pair(t);
    await app.drain();
    const [sourceMail] = await mailsTo(sourceEmail);
    const oldMessageId = (sourceMail as unknown as { messageId?: string }).messageId;
    await merge(t, source.id, target.id);

    await post(t, target.id, { body: 'Both charges are refunded.' });
    await app.drain();
    const copies = (await mailsTo(sourceEmail)).filter((m) => m.body.text?.includes('Both charges are refunded.'));
    expect(copies).toHaveLength(1);
    expect(copies[0]!.destination.cc).toEqual([sourceEmail]);
    expect(copies[0]!.subject).toContain(`[#${target.number}]`);

    // The source's reply address, answered by its customer, lands on the target.
    const address = replyAddress(t.projects.main!, 'live', source.number, 'inbound.helpdesk.local');
    await smtp.sendMail({
      from: `Sam <${sourceEmail}>`,
      to: address,
      subject: 'Re: Refund please',
      text: 'Thanks, got it.',
      headers: { [LOCAL_AUTH_HEADER]: 'pass' },
    });
    // Two mails in flight at once may be taken in either order (as SES and SQS may): one at a time.
    await app.drain();
    // An answer to the source's first mail, sent to the project address, lands there too.
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress;
    const root = `<thread.${source.id}@inbound.helpdesk.local>`;
    await smtp.sendMail({
      from: sourceEmail,
      to: inbound,
      subject: 'Re: Refund please',
      text: 'One more thing.',
      inReplyTo: oldMessageId ?? root,
      references: [root],
      headers: { [LOCAL_AUTH_HEADER]: 'pass' },
    });
    await app.drain();
    const d = await detail(t, target.id);
    const answers = d.messages.filter((m) => m.senderType === 'customer' && m.ticketId === target.id);
    expect(answers.map((m) => m.body)).toEqual(['Same problem here.', 'Thanks, got it.', 'One more thing.']);
    expect((await detail(t, source.id)).messages.map((m) => m.body)).not.toContain('Thanks, got it.');

    // The source's ticket page shows the target and takes answers there.
    const path = new URL(ticketPageLink({ projectId: t.projects.main!.id, env: 'live' }, source.id)).pathname;
    const page = await app.call('GET', path, { headers: { accept: 'application/json' } });
    expect(page.body).toMatchObject({ id: target.id, number: target.number });
    expect(page.body.messages.map((m: { body: string }) => m.body)).toContain('I was charged twice.');
    await app.call('POST', path, { body: { body: 'Answered on the page.' } });
    expect((await detail(t, target.id)).messages.at(-1)).toMatchObject({
      ticketId: target.id,
      body: 'Answered on the page.',
    });
  });

  it('follows a merged target to the end of its chain, and refuses loops, itself and other projects', async () => {
    const t = await createTenant({ projects: ['main', 'other'] });
    const key = await t.key({ projects: ['main'] });
    const [a, b, c] = [await createTicket(app, key), await createTicket(app, key), await createTicket(app, key)];
    expect((await merge(t, a.id, b.id, key)).status).toBe(200);
    // c into a (merged into b) goes to b.
    const chained = await merge(t, c.id, a.id, key);
    expect(chained.status).toBe(200);
    expect(chained.body).toMatchObject({ id: b.id, mergedFrom: [a.id, c.id] });
    expect((await detail(t, c.id, key)).mergedInto).toBe(b.id);

    const self = await merge(t, b.id, b.id, key);
    expect(self.status).toBe(422);
    expect(self.body.error).toMatchObject({ code: 'ticket.merge_into_self', details: { field: 'into' } });
    const loop = await merge(t, b.id, a.id, key);
    expect(loop.status).toBe(422);
    expect(loop.body.error).toMatchObject({ code: 'ticket.merge_loop', details: { field: 'into', target: a.id } });

    const main = { 'Service-Project': 'main' };
    const elsewhere = await createTicket(app, t.liveKey, {}, { 'Service-Project': 'other' });
    const cross = await merge(t, b.id, elsewhere.id, t.liveKey, main);
    expect(cross.status).toBe(422);
    expect(cross.body.error).toMatchObject({
      code: 'ticket.merge_other_project',
      details: { projectId: t.projects.other!.id },
    });
    // A key that does not reach the other project, another account and the other environment see a 404.
    expect((await merge(t, b.id, elsewhere.id, key)).status).toBe(404);
    const stranger = await createTenant();
    const theirs = await createTicket(app, stranger.liveKey);
    expect((await merge(t, b.id, theirs.id, t.liveKey, main)).status).toBe(404);
    expect((await merge(stranger, theirs.id, b.id, stranger.liveKey)).status).toBe(404);
    const sandbox = await createTicket(app, t.sandboxKey, {}, main);
    expect((await merge(t, b.id, sandbox.id, key)).status).toBe(404);
    expect((await merge(t, b.id, 'not-a-uuid', key)).status).toBe(422);
    // Nothing changed by the refusals.
    expect(await detail(t, b.id, key)).toMatchObject({ mergedInto: null, mergedFrom: [a.id, c.id] });
  }, 30_000);

  it(`refuses a target that would show more than ${MERGED_PER_TICKET} merged tickets`, async () => {
    const t = await createTenant();
    const target = await createTicket(app, t.liveKey);
    const [one, sources] = await Promise.all([
      createTicket(app, t.liveKey),
      Promise.all(Array.from({ length: MERGED_PER_TICKET }, () => createTicket(app, t.liveKey))),
    ]);
    // One after another: merges into one target conflict with each other.
    for (const source of sources) expect((await merge(t, source.id, target.id)).status).toBe(200);
    const res = await merge(t, one.id, target.id);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'ticket.merge_too_many', details: { limit: MERGED_PER_TICKET } });
    expect((await detail(t, target.id)).mergedFrom).toHaveLength(MERGED_PER_TICKET);
  }, 60_000);

  it('deletes the tickets merged into a deleted target', async () => {
    const t = await createTenant();
    const { source, target } = await pair(t);
    await merge(t, source.id, target.id);
    const res = await app.call('DELETE', `/tickets/${target.id}`, { key: t.liveKey });
    expect(res.status).toBe(200);
    expect(res.body.attachmentsRemoved).toBe(1);
    expect((await app.call('GET', `/tickets/${source.id}`, { key: t.liveKey })).status).toBe(404);
  });
});

describe('POST /tickets/{id}/unmerge', () => {
  it('restores both tickets: status, thread, customers and tags; then the source takes writes again', async () => {
    const t = await createTenant();
    const { source, target } = await pair(t);
    await merge(t, source.id, target.id);
    // The operation takes no body: one with fields, or not JSON, is refused before anything moves.
    for (const body of [{ reason: 'oops' }, '{bad json']) {
      const refused = await app.call('POST', `/tickets/${source.id}/unmerge`, {
        key: t.liveKey,
        ...(typeof body === 'string' ? { rawBody: body, headers: { 'content-type': 'application/json' } } : { body }),
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('validation.failed');
    }
    expect((await detail(t, source.id)).mergedInto).toBe(target.id);
    const res = await app.call('POST', `/tickets/${source.id}/unmerge`, { key: t.liveKey, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: source.id, status: 'pending', mergedInto: null, mergedAt: null });
    // As if never merged: the resolution the merge's close made is gone, and no reopening is counted.
    expect(res.body.metrics).toMatchObject({ resolution: null, reopens: 0 });
    const back = await detail(t, target.id);
    expect(back).toMatchObject({ mergedFrom: [], otherCustomers: [], tags: ['vip'] });
    expect(back.messages.every((m) => m.ticketId === target.id)).toBe(true);
    expect(back.messages.at(-1)!.body).toBe(`Ticket #${source.number} was unmerged from this ticket.`);
    expect((await detail(t, source.id)).messages.at(-1)!.body).toBe(`Unmerged from ticket #${target.number}.`);
    expect((await post(t, source.id, { body: 'Writable again.' })).status).toBe(200);
    const events = (await emitted(app)).filter((e) => e.name === 'ticket.unmerged' && e.data.ticket.id === target.id);
    expect(events.map((e) => e.data.source.id)).toEqual([source.id]);
    const again = await unmerge(t, source.id);
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('ticket.not_merged');
  });

  it(`is final after ${UNMERGE_DAYS} days, and waits for a target merged since to be unmerged first`, async () => {
    const t = await createTenant();
    const { source, target } = await pair(t);
    await merge(t, source.id, target.id);
    const final = await createTicket(app, t.liveKey);
    await merge(t, target.id, final.id);
    const blocked = await unmerge(t, source.id);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({ code: 'ticket.merged', details: { mergedInto: final.id } });
    expect((await detail(t, final.id)).mergedFrom).toEqual([target.id, source.id]);

    // Eight days later (the merge record's time moved back, as a controllable clock would).
    const key = { projectId: t.projects.main!.id, env: 'live' as const, ticketId: target.id };
    const { data } = await Ticket.get(key).go();
    const old = new Date(Date.now() - (UNMERGE_DAYS + 1) * 86_400_000).toISOString();
    await Ticket.patch(key)
      .set({ merge: { ...(data!.merge as object), at: old } })
      .go();
    const late = await unmerge(t, target.id);
    expect(late.status).toBe(422);
    expect(late.body.error).toMatchObject({
      code: 'ticket.merge_final',
      details: { mergedAt: old, days: UNMERGE_DAYS },
    });
    expect((await detail(t, final.id)).mergedFrom).toEqual([target.id, source.id]);
  });
});

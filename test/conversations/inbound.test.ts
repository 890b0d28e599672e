import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { inboundQueue } from '@helpdesk/core/areas/conversations/queue';
import { MAX_INBOUND_BYTES } from '@helpdesk/core/areas/conversations/values';
import { reindexProjects } from '@helpdesk/core/identity/accounts';
import { Project } from '@helpdesk/core/identity/entities';
import { tenantOfProject } from '@helpdesk/core/identity/tenant';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import { replyAddress } from '@helpdesk/core/kernel/mail/reply-address';
import { putObject } from '@helpdesk/core/kernel/ports/blob-store';
import { enqueue } from '@helpdesk/core/kernel/ports/queue';
import nodemailer from 'nodemailer';
import { describe, expect, it, vi } from 'vitest';
import { LOCAL_AUTH_HEADER } from '../../packages/local/src/smtp.js';
import { mailsTo, type StoredMail } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from '../tickets/event-spy.js';
import { createTicket, customerEmail } from '../tickets/helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) =>
  (await import('../tickets/event-spy.js')).spiedRelay(original),
);

const app = await startTestApp();
const smtp = nodemailer.createTransport({ host: app.smtp.host, port: app.smtp.port, secure: false, ignoreTLS: true });

type Stored = StoredMail & { replyTo?: string[]; headers?: { name: string; value: string }[] };

interface Sent {
  from: string;
  to: string;
  subject?: string;
  text?: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string;
  headers?: Record<string, string>;
  attachments?: { filename: string; content: string | Buffer; contentType?: string }[];
  /** What the stand-in reports as SPF, DKIM and DMARC (X-Local-Authentication): a customer's own mail passes. */
  authentication?: 'pass' | 'fail' | 'none';
}

const send = ({ authentication = 'pass', headers, ...mail }: Sent) =>
  smtp.sendMail({
    subject: 'Re: your ticket',
    ...mail,
    headers: { ...(authentication === 'none' ? {} : { [LOCAL_AUTH_HEADER]: authentication }), ...headers },
  });

/** A ticket with one staff reply, and the reply mail as the customer received it. */
async function answeredTicket(t: TenantFixture, key = t.liveKey) {
  const email = customerEmail();
  const ticket = await createTicket(app, key, { subject: 'Printer on fire', customer: { email, name: 'Ada' } });
  const reply = await app.call('POST', `/tickets/${ticket.id}/messages`, {
    key,
    body: { body: 'Have you tried turning it off?' },
  });
  expect(reply.status).toBe(200);
  await app.drain();
  const [mail] = (await mailsTo(email)) as Stored[];
  return { ticket, email, mail };
}

const detail = async (key: string, id: string) => (await app.call('GET', `/tickets/${id}`, { key })).body;
const ticketsOf = async (key: string) =>
  (await app.call('GET', '/tickets', { key, query: { limit: 100 } })).body.tickets as { id: string; subject: string }[];

describe('outbound: ticket mails can be answered', () => {
  it('a staff reply goes out with a signed Reply-To, threading headers and a link to the ticket page', async () => {
    const t = await createTenant();
    const { ticket, mail } = await answeredTicket(t);
    expect(mail).toBeDefined();
    expect(mail!.replyTo).toEqual([replyAddress(t.projects.main!, 'live', ticket.number, 'inbound.helpdesk.local')]);
    const headers = Object.fromEntries((mail!.headers ?? []).map((h) => [h.name, h.value]));
    expect(headers.References).toBe(`<thread.${ticket.id}@inbound.helpdesk.local>`);
    expect(mail!.body.text).toMatch(/\/api\/v1\/public\/tickets\/[\w-]+\.[\w-]+/);
  });
});

describe('inbound: mail becomes customer messages', () => {
  it('an answer to the Reply-To joins the ticket: new text only, the attachment, open, awaiting reply, message.received', async () => {
    const t = await createTenant();
    const { ticket, email, mail } = await answeredTicket(t);
    await app.call('PATCH', `/tickets/${ticket.id}`, { key: t.liveKey, body: { status: 'pending' } });
    await send({
      from: `Ada <${email}>`,
      to: mail!.replyTo![0]!,
      text: 'Yes, it is still on fire.\n\nOn Mon, Support wrote:\n> Have you tried turning it off?\n',
      attachments: [{ filename: 'fire.txt', content: 'smoke', contentType: 'text/plain' }],
    });
    await app.drain();
    const d = await detail(t.liveKey, ticket.id);
    const last = d.messages.at(-1);
    expect(last).toMatchObject({ senderType: 'customer', visibility: 'public', body: 'Yes, it is still on fire.' });
    expect(last.attachments).toEqual([
      expect.objectContaining({ fileName: 'fire.txt', mimeType: 'text/plain', fileSize: 5 }),
    ]);
    expect(await (await fetch(last.attachments[0].url)).text()).toBe('smoke');
    expect(d).toMatchObject({ status: 'open', lastSenderType: 'customer' });
    const awaiting = await app.call('GET', '/tickets', { key: t.liveKey, query: { awaitingReply: true } });
    expect(awaiting.body.tickets.map((r: { id: string }) => r.id)).toContain(ticket.id);
    expect(
      (await emitted(app))
        .filter((e) => e.name === 'message.received' && e.data.ticket.id === ticket.id)
        .map((e) => e.data.message.senderType),
    ).toEqual(['staff', 'customer']);
  });

  it('threads the next staff reply under the customer mail (In-Reply-To, References)', async () => {
    const t = await createTenant();
    const { ticket, email, mail } = await answeredTicket(t);
    const customerId = `<${randomUUID()}@mail.example.com>`;
    await send({ from: email, to: mail!.replyTo![0]!, text: 'Still broken.', messageId: customerId });
    await app.drain();
    await app.call('POST', `/tickets/${ticket.id}/messages`, {
      key: t.liveKey,
      body: { body: 'Sending a technician.' },
    });
    await app.drain();
    const mails = (await mailsTo(email)) as Stored[];
    const second = mails.find((m) => m.body.text?.includes('technician'));
    const headers = Object.fromEntries((second!.headers ?? []).map((h) => [h.name, h.value]));
    expect(headers['In-Reply-To']).toBe(customerId);
    expect(headers.References!.split(' ')).toEqual(
      expect.arrayContaining([`<thread.${ticket.id}@inbound.helpdesk.local>`, customerId]),
    );
  });

  it('adds one message for the same mail delivered twice', async () => {
    const t = await createTenant();
    const { ticket, email, mail } = await answeredTicket(t);
    const messageId = `<${randomUUID()}@mail.example.com>`;
    for (let i = 0; i < 2; i++)
      await send({ from: email, to: mail!.replyTo![0]!, text: 'Only once please.', messageId });
    await app.drain();
    const d = await detail(t.liveKey, ticket.id);
    expect(d.messages.filter((m: { body: string }) => m.body === 'Only once please.')).toHaveLength(1);
  });

  it("keeps another sender's mail under a Message-ID already seen, or one the service sent: only a redelivery is one", async () => {
    const t = await createTenant();
    const { mail } = await answeredTicket(t);
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress;
    const messageId = `<${randomUUID()}@mail.example.com>`;
    const ours = mail!.headers?.find((h) => h.name.toLowerCase() === 'message-id')?.value;
    const first = customerEmail();
    const second = customerEmail();
    await send({ from: first, to: inbound, subject: 'Reused id one', text: 'One.', messageId });
    await send({ from: second, to: inbound, subject: 'Reused id two', text: 'Two.', messageId });
    await send({ from: second, to: inbound, subject: 'Reused id two', text: 'Two.', messageId });
    if (ours) await send({ from: first, to: inbound, subject: 'Copied our id', text: 'Three.', messageId: ours });
    await app.drain();
    const subjects = (await ticketsOf(t.liveKey)).map((r) => r.subject);
    expect(subjects.filter((s) => s === 'Reused id one')).toHaveLength(1);
    expect(subjects.filter((s) => s === 'Reused id two')).toHaveLength(1);
    if (ours) expect(subjects).toContain('Copied our id');
  });

  it('opens a ticket from mail to the project inbound address, matching or creating the customer', async () => {
    const t = await createTenant();
    const projects = await app.call('GET', '/projects', { key: t.liveKey });
    const { inboundAddress, sandboxInboundAddress } = projects.body.projects[0];
    expect(inboundAddress).toMatch(/^main\.[a-z2-7]{26}@inbound\.helpdesk\.local$/);
    expect(sandboxInboundAddress).toBe(inboundAddress.replace('@', '+sandbox@'));
    const email = customerEmail();
    await send({
      from: `Grace Hopper <${email}>`,
      to: inboundAddress,
      subject: 'Bug in the compiler',
      html: '<p>There is a <b>moth</b> in relay 70.</p>',
    });
    await app.drain();
    const opened = (await ticketsOf(t.liveKey)).find((r) => r.subject === 'Bug in the compiler');
    expect(opened).toBeDefined();
    const d = await detail(t.liveKey, opened!.id);
    expect(d).toMatchObject({ status: 'new', customer: { email, name: 'Grace Hopper' }, followUpOf: null });
    expect(d.messages[0].body).toBe('There is a moth in relay 70.');
    expect((await emitted(app)).some((e) => e.name === 'customer.created' && e.data.customer.email === email)).toBe(
      true,
    );
    const created = (await emitted(app)).filter((e) => e.name === 'ticket.created' && e.data.ticket.id === opened!.id);
    expect(created.map((e) => e.data.source)).toEqual(['email']);

    // Sandbox mail lands in sandbox data only.
    await send({ from: email, to: sandboxInboundAddress, subject: 'Sandbox question', text: 'Testing.' });
    await app.drain();
    expect((await ticketsOf(t.sandboxKey)).map((r) => r.subject)).toContain('Sandbox question');
    expect((await ticketsOf(t.liveKey)).map((r) => r.subject)).not.toContain('Sandbox question');
  });

  it("opens a ticket in every project one mail is addressed to, another account's included, each once", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const inbound = async (t: TenantFixture) =>
      (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress as string;
    const email = customerEmail();
    const mail = {
      from: email,
      to: `${await inbound(a)}, ${await inbound(b)}`,
      subject: 'To both of you',
      text: 'Hi.',
    };
    await send({ ...mail, messageId: `<both-${email}>` });
    await send({ ...mail, messageId: `<both-${email}>` }); // delivered again: nothing more
    await app.drain();
    for (const t of [a, b])
      expect((await ticketsOf(t.liveKey)).filter((r) => r.subject === 'To both of you')).toHaveLength(1);
  });

  it('joins by In-Reply-To when a mail to the project address answers a ticket mail', async () => {
    const t = await createTenant();
    const { ticket, email } = await answeredTicket(t);
    const first = `<${randomUUID()}@mail.example.com>`;
    const { mail } = { mail: ((await mailsTo(email)) as Stored[])[0] };
    await send({ from: email, to: mail!.replyTo![0]!, text: 'First answer.', messageId: first });
    await app.drain();
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress;
    await send({
      from: email,
      to: inbound,
      text: 'Second answer, to the shared address.',
      inReplyTo: first,
      references: first,
    });
    await app.drain();
    const d = await detail(t.liveKey, ticket.id);
    expect(d.messages.map((m: { body: string }) => m.body)).toContain('Second answer, to the shared address.');
  });

  it("joins by our thread's root id alone, for a client that answers the first staff mail's References", async () => {
    const t = await createTenant();
    const { ticket, email } = await answeredTicket(t);
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress;
    const root = `<thread.${ticket.id}@inbound.helpdesk.local>`;
    await send({ from: email, to: inbound, text: 'Answering the root.', inReplyTo: root, references: root });
    // Another tenant's thread root, or one on another domain, names no ticket here: a new ticket each.
    const other = await createTenant();
    const { ticket: foreign } = await answeredTicket(other);
    await send({
      from: email,
      to: inbound,
      text: 'Naming a foreign thread.',
      inReplyTo: `<thread.${foreign.id}@inbound.helpdesk.local>`,
    });
    await send({ from: email, to: inbound, text: 'Another domain.', inReplyTo: `<thread.${ticket.id}@evil.example>` });
    await app.drain();
    const d = await detail(t.liveKey, ticket.id);
    const bodies = d.messages.map((m: { body: string }) => m.body);
    expect(bodies).toContain('Answering the root.');
    expect(bodies).not.toContain('Naming a foreign thread.');
    expect(bodies).not.toContain('Another domain.');
    expect((await detail(other.liveKey, foreign.id)).messages.map((m: { body: string }) => m.body)).not.toContain(
      'Naming a foreign thread.',
    );
  });

  it('opens a follow-up ticket for an answer to a closed ticket', async () => {
    const t = await createTenant();
    const { ticket, email, mail } = await answeredTicket(t);
    await app.call('PATCH', `/tickets/${ticket.id}`, { key: t.liveKey, body: { status: 'closed' } });
    await send({ from: email, to: mail!.replyTo![0]!, subject: 'Re: Printer on fire', text: 'It happened again.' });
    await app.drain();
    expect((await detail(t.liveKey, ticket.id)).messages).toHaveLength(2);
    const followUp = (await ticketsOf(t.liveKey)).find((r) => r.id !== ticket.id);
    expect(await detail(t.liveKey, followUp!.id)).toMatchObject({ followUpOf: ticket.id, customer: { email } });
  });

  it('a stranger holding the reply address starts a new ticket instead of joining', async () => {
    const t = await createTenant();
    const { ticket, mail } = await answeredTicket(t);
    const stranger = customerEmail('stranger');
    await send({ from: stranger, to: mail!.replyTo![0]!, text: 'Forwarded to me, I have the same problem.' });
    await app.drain();
    expect((await detail(t.liveKey, ticket.id)).messages).toHaveLength(2);
    const other = (await ticketsOf(t.liveKey)).find((r) => r.id !== ticket.id);
    expect(await detail(t.liveKey, other!.id)).toMatchObject({ customer: { email: stranger }, followUpOf: null });
  });

  it('never joins a mail whose sender is not verified: the reply address, In-Reply-To, DMARC fail, several From', async () => {
    const t = await createTenant();
    const { ticket, email, mail } = await answeredTicket(t);
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress;
    const staffMessageId = (mail!.headers ?? []).find((h) => h.name === 'References')?.value;
    const before = await detail(t.liveKey, ticket.id);
    // Anyone can write the customer's From: without SPF, DKIM or DMARC backing it, or with DMARC failing.
    await send({ from: email, to: mail!.replyTo![0]!, text: 'Forged: wire the refund to me.', authentication: 'none' });
    await send({
      from: email,
      to: inbound,
      text: 'Forged through the shared address.',
      inReplyTo: staffMessageId,
      references: staffMessageId,
      authentication: 'fail',
    });
    // A passing verdict says nothing about which of several From mailboxes it judged (RFC 7489 6.6.1).
    await send({
      from: `${email}, attacker@evil.example`,
      to: mail!.replyTo![0]!,
      text: 'Forged beside the real one.',
    });
    await app.drain();
    const thread = await detail(t.liveKey, ticket.id);
    expect(thread.messages.map((m: { body: string }) => m.body)).toEqual([
      expect.any(String),
      'Have you tried turning it off?',
    ]);
    expect(thread.status).toBe(before.status);
    expect(thread.lastSenderType).toBe('staff');
    // Kept, not lost: each became a ticket of its own, tagged for the team and naming no ticket.
    const others = (await ticketsOf(t.liveKey)).filter((r) => r.id !== ticket.id);
    expect(others).toHaveLength(3);
    for (const other of others) {
      expect(await detail(t.liveKey, other.id)).toMatchObject({ tags: ['unverified-sender'], followUpOf: null });
    }
    // The same mail, authenticated, joins.
    await send({ from: email, to: mail!.replyTo![0]!, text: 'The real customer.' });
    await app.drain();
    expect((await detail(t.liveKey, ticket.id)).messages.at(-1).body).toBe('The real customer.');
  });

  it('drops the auto-replies Exchange and other responders mark with their own headers', async () => {
    const t = await createTenant();
    const { ticket, email, mail } = await answeredTicket(t);
    await app.call('PATCH', `/tickets/${ticket.id}`, { key: t.liveKey, body: { status: 'resolved' } });
    const to = mail!.replyTo![0]!;
    await send({ from: email, to, text: 'Away.', headers: { Precedence: 'auto_reply' } });
    await send({ from: email, to, text: 'Away.', headers: { 'X-Auto-Response-Suppress': 'All' } });
    await send({ from: email, to, text: 'Forwarded by a rule.', headers: { 'X-MS-Exchange-Inbox-Rules-Loop': email } });
    await send({
      from: email,
      to,
      subject: 'Automatic reply: Printer on fire',
      text: 'I am on leave until Monday.',
      headers: { 'X-MS-Exchange-Organization-AuthAs': 'Internal' },
    });
    await send({
      from: email,
      to,
      subject: 'Abwesenheitsnotiz: Printer on fire',
      text: 'Ich bin nicht im Büro.',
      headers: { 'X-MS-Exchange-Organization-SCL': '-1' },
    });
    await app.drain();
    const d = await detail(t.liveKey, ticket.id);
    expect(d.messages).toHaveLength(2);
    expect(d.status).toBe('resolved');
    expect(await ticketsOf(t.liveKey)).toHaveLength(1);
    // A person's subject that merely starts like one, sent through Exchange, is a message.
    await send({
      from: email,
      to,
      subject: 'Out of office hours support?',
      text: 'Do you answer at night?',
      headers: { 'X-MS-Exchange-Organization-SCL': '-1' },
    });
    await app.drain();
    expect((await detail(t.liveKey, ticket.id)).messages).toHaveLength(3);
  });

  it('drops auto-replies, bulk mail, bounces, forged tokens and spam verdicts without answering', async () => {
    const t = await createTenant();
    const { ticket, email, mail } = await answeredTicket(t);
    const to = mail!.replyTo![0]!;
    await send({ from: email, to, text: 'I am out of office.', headers: { 'Auto-Submitted': 'auto-replied' } });
    await send({ from: email, to, text: 'Newsletter.', headers: { Precedence: 'bulk' } });
    await send({ from: email, to, text: 'Away.', headers: { 'X-Autoreply': 'yes' } });
    await send({ from: 'MAILER-DAEMON@mail.example.com', to, text: 'Delivery failed.' });
    // A read receipt (RFC 8098), and a mail nested deeper than the MIME parser reads.
    const report = (body: string) =>
      smtp.sendMail({
        envelope: { from: email, to: [to] },
        raw: `From: ${email}\r\nTo: ${to}\r\nSubject: Read: your ticket\r\n${LOCAL_AUTH_HEADER}: pass\r\n${body}`,
      });
    await report(
      'Content-Type: multipart/report; report-type=disposition-notification; boundary=R\r\n\r\n--R\r\nContent-Type: text/plain\r\n\r\nYour message was read.\r\n--R--\r\n',
    );
    const nested = Array.from(
      { length: 300 },
      (_, i) => `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n`,
    ).join('');
    await report(`${nested}Content-Type: text/plain\r\n\r\nDeep.\r\n`);
    // A token whose MAC does not verify (one character changed).
    const [local, domain] = to.split('@');
    const forged = `${local!.slice(0, -1)}${local!.endsWith('a') ? 'b' : 'a'}@${domain}`;
    await send({ from: email, to: forged, text: 'Forged.' });
    // SES marked it spam: stored and notified, but dropped.
    const key = `inbound/${randomUUID()}`;
    await putObject(key, `From: ${email}\r\nTo: ${to}\r\nSubject: spam\r\n\r\nBuy now.`, 'message/rfc822');
    await enqueue(inboundQueue, {
      notificationType: 'Received',
      mail: { messageId: randomUUID() },
      receipt: {
        recipients: [to],
        spamVerdict: { status: 'FAIL' },
        virusVerdict: { status: 'PASS' },
        action: { type: 'S3', bucketName: 'any', objectKey: key },
      },
    });
    await app.drain();
    expect((await detail(t.liveKey, ticket.id)).messages).toHaveLength(2);
    expect(await ticketsOf(t.liveKey)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('refuses mail over the limit with SMTP 552, and mail for other domains with 550', async () => {
    const t = await createTenant();
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress;
    await expect(
      send({ from: customerEmail(), to: inbound, text: 'x'.repeat(MAX_INBOUND_BYTES + 1024) }),
    ).rejects.toMatchObject({ responseCode: 552 });
    await expect(send({ from: customerEmail(), to: 'someone@example.org', text: 'hi' })).rejects.toMatchObject({
      responseCode: 550,
    });
  });

  it('survives clients that drop the connection mid-transaction, and keeps receiving', async () => {
    const t = await createTenant();
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress;
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(app.smtp.port, app.smtp.host);
      let said = '';
      socket.on('data', (chunk) => {
        said += chunk.toString();
      });
      socket.on('error', () => {});
      const waitFor = async (text: string) => {
        for (let n = 0; n < 100 && !said.includes(text); n++) await new Promise((r) => setTimeout(r, 20));
      };
      await waitFor('220');
      socket.write(`EHLO client\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<${inbound}>\r\n`);
      await waitFor('250 Accepted');
      socket.resetAndDestroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    const email = customerEmail();
    await send({ from: email, to: inbound, subject: 'After the resets', text: 'Still there?' });
    await app.drain();
    expect((await ticketsOf(t.liveKey)).map((r) => r.subject)).toContain('After the resets');
  });
});

describe('projects created before the by-id index', () => {
  it('are found by inbound mail once projects:index (reindexProjects) has run', async () => {
    const t = await createTenant();
    const projectId = t.projects.main!.id;
    // As an older version wrote it: no by-id index keys.
    const { TableName, Key } = Project.get({ accountId: t.accountId, projectId }).params() as {
      TableName: string;
      Key: Record<string, string>;
    };
    await documentClient.send(new UpdateCommand({ TableName, Key, UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }));
    expect(await tenantOfProject(projectId, 'live')).toBeUndefined();
    expect(await reindexProjects()).toBeGreaterThanOrEqual(1);
    expect(await tenantOfProject(projectId, 'live')).toMatchObject({ accountId: t.accountId, projectId, env: 'live' });
  });
});

describe('mail the parser can barely read', () => {
  it('drops mail without a sender or from an address customers cannot have, and survives binary garbage, a bad charset and a header-only mail', async () => {
    const t = await createTenant();
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress as string;
    const raws = [
      `To: ${inbound}\r\nSubject: nobody\r\n\r\nNo From header.`,
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)),
      `From: ann@example.com\r\nTo: ${inbound}\r\nSubject: =?x-unknown?B?zzz?=\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\n\xff\xfe odd bytes`,
      `From: bob@example.com\r\nTo: ${inbound}\r\nSubject: headers only\r\n`,
      // Senders the API would refuse as a customer's email: longer than 254 characters, a non-ASCII local part.
      `From: ${'a'.repeat(250)}@example.com\r\nTo: ${inbound}\r\nSubject: too long\r\n\r\nHi`,
      Buffer.from(`From: j\u00f6ran@example.com\r\nTo: ${inbound}\r\nSubject: utf8 local part\r\n\r\nHi`, 'utf8'),
    ];
    for (const [i, raw] of raws.entries()) {
      const key = `inbound/garbage-${randomUUID()}`;
      await putObject(key, raw, 'message/rfc822');
      await enqueue(inboundQueue, {
        notificationType: 'Received',
        mail: { messageId: `garbage-${i}-${randomUUID()}` },
        receipt: {
          recipients: [inbound],
          spamVerdict: { status: 'PASS' },
          virusVerdict: { status: 'PASS' },
          action: { type: 'S3', bucketName: 'any', objectKey: key },
        },
      });
    }
    await app.drain();
    const subjects = (await ticketsOf(t.liveKey)).map((r) => r.subject).sort();
    // The two with a usable sender open tickets (the odd charset read as well as it can be); the others are dropped.
    expect(subjects).toHaveLength(2);
    expect(subjects).toContain('headers only');
  });

  it('keeps only text people can read: controls out of bodies and names, bidi controls out of file names, an unreadable Content-Type read as text', async () => {
    const t = await createTenant();
    const inbound = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress as string;
    const raw = (from: string, subject: string, rest: string) =>
      smtp.sendMail({
        envelope: { from, to: inbound },
        raw: `From: ${from}\r\nTo: ${inbound}\r\nSubject: ${subject}\r\n${LOCAL_AUTH_HEADER}: pass\r\n${rest}`,
      });
    const ctl = customerEmail();
    await raw(
      `=?utf-8?Q?Evil=0D=0ABcc=3A_x=00?= <${ctl}>`,
      'controls',
      'Content-Type: text/plain; charset=utf-8\r\n\r\nbody with \u0000 nul and \u001b[31m escape\r\n',
    );
    const bidi = customerEmail();
    await send({
      from: bidi,
      to: inbound,
      subject: 'bidi file',
      text: 'See the invoice.',
      attachments: [{ filename: 'invoice\u202efdp.exe', content: 'MZ' }],
    });
    const untyped = customerEmail();
    for (const type of ['', 'text', ';;;===;;;'])
      await raw(untyped, `type ${type || 'empty'}`, `Content-Type: ${type}\r\n\r\nhello customer text\r\n`);
    await app.drain();
    const tickets = await ticketsOf(t.liveKey);
    const bySubject = async (subject: string) => detail(t.liveKey, tickets.find((x) => x.subject === subject)!.id);

    const controls = await bySubject('controls');
    expect(controls.customer.name).toBe('Evil Bcc: x');
    expect(controls.messages[0].body).toBe('body with  nul and [31m escape');
    const file = (await bySubject('bidi file')).messages[0].attachments[0];
    expect(file.fileName).toBe('invoicefdp.exe');
    for (const type of ['empty', 'text', ';;;===;;;']) {
      const message = (await bySubject(`type ${type}`)).messages[0];
      expect(message.body, type).toBe('hello customer text');
      expect(message.attachments, type).toEqual([]);
    }
  });
});

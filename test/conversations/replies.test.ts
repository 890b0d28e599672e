import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { LOCAL_AUTH_HEADER } from '../../packages/local/src/smtp.js';
import { ConsoleClient } from '../console/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { customerEmail } from '../tickets/helpers.js';

/**
 * Customer mail read as people wrote it, through the SMTP stand-in and the inbound consumer: each
 * class of quoted history, forward and signature the major clients produce, in plain text and in
 * HTML-only mail. The stored message is the customer's words; the whole mail stays reachable.
 */
const app = await startTestApp();
const smtp = nodemailer.createTransport({ host: app.smtp.host, port: app.smtp.port, secure: false, ignoreTLS: true });

async function inboundOf(t: TenantFixture) {
  return (await app.call('GET', '/projects', { key: t.liveKey })).body.projects[0].inboundAddress as string;
}

/** Sends the mail to the project's address as a new customer and answers the ticket it opened. */
async function received(t: TenantFixture, mail: { text?: string; html?: string }, include?: 'original') {
  const from = customerEmail();
  await smtp.sendMail({
    from,
    to: await inboundOf(t),
    subject: 'Re: Your order',
    ...mail,
    headers: { [LOCAL_AUTH_HEADER]: 'pass' },
  });
  return firstMessage(t, from, include);
}

/** Once the mail is in: the first message of the ticket it opened for `from`. */
async function firstMessage(t: TenantFixture, from: string, include?: 'original') {
  await app.drain();
  const list = await app.call('GET', '/tickets', { key: t.liveKey });
  const ticket = list.body.tickets.find((x: { customerEmail: string }) => x.customerEmail === from);
  expect(ticket, `a ticket for ${from}`).toBeDefined();
  const detail = await app.call('GET', `/tickets/${ticket.id}`, { key: t.liveKey, query: { include } });
  expect(detail.status).toBe(200);
  return detail.body.messages[0] as { body: string; original?: { text: string; html: string | null } | null };
}

/** Sends a mail whose text part is given as sent, with its own Content-Type (e.g. format=flowed). */
async function receivedRaw(t: TenantFixture, contentType: string, text: string) {
  const from = customerEmail();
  const raw = [
    `From: ${from}`,
    `To: ${await inboundOf(t)}`,
    'Subject: Re: Your order',
    `Message-ID: <${crypto.randomUUID()}@customer.example>`,
    'MIME-Version: 1.0',
    `Content-Type: ${contentType}`,
    'Content-Transfer-Encoding: 8bit',
    `${LOCAL_AUTH_HEADER}: pass`,
    '',
    text,
  ].join('\r\n');
  await smtp.sendMail({ envelope: { from, to: await inboundOf(t) }, raw });
  return firstMessage(t, from);
}

const OUTLOOK_QUOTE = [
  '________________________________',
  'Von: Support <support@shop.example>',
  'Gesendet: Dienstag, 25. November 2025 14:59',
  'An: Ada Lovelace <ada@example.com>',
  'Betreff: Your order',
  '',
  'Hello Ada, your order shipped.',
].join('\n');

describe('replies read as people wrote them', () => {
  it("removes Outlook's localized From/Sent/To/Subject block and keeps the whole mail for ?include=original", async () => {
    const t = await createTenant();
    const message = await received(t, { text: `Thanks, it arrived today.\n\n${OUTLOOK_QUOTE}` }, 'original');
    expect(message.body).toBe('Thanks, it arrived today.');
    expect(message.original?.text).toContain('Hello Ada, your order shipped.');
    expect(message.original?.text).toContain('Von: Support');
    expect(message.original?.html).toBeNull();

    // The console shows the reply, and the whole mail collapsed beneath it, escaped.
    const admin = await new ConsoleClient(app).signIn((await t.member({ role: 'admin' })).email);
    const list = await app.call('GET', '/tickets', { key: t.liveKey });
    const page = await admin.get(`/console/tickets/${list.body.tickets[0].id}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /Thanks, it arrived today\.<details><summary>[^<]+<\/summary><pre>[^<]*Von: Support &lt;support@shop\.example&gt;/,
    );
  });

  it('cuts an HTML-only Outlook reply at divRplyFwdMsg and a Gmail reply at gmail_quote', async () => {
    const t = await createTenant();
    const outlook = await received(t, {
      html: `<html><body><div>Yes, please cancel it.</div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Support &lt;support@shop.example&gt;<br><b>Sent:</b> Tuesday, November 25, 2025 2:59 PM<br><b>Subject:</b> Your order</div><div>Shall we cancel the order?</div></body></html>`,
    });
    expect(outlook.body).toBe('Yes, please cancel it.');
    const gmail = await received(
      t,
      {
        html: `<div dir="ltr">Works now, thank you!</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">El mar, 25 nov 2025 a las 14:59, Support (&lt;support@shop.example&gt;) escribió:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">Please restart the app.</blockquote></div>`,
      },
      'original',
    );
    expect(gmail.body).toBe('Works now, thank you!');
    expect(gmail.original?.html).toContain('gmail_quote');
    expect(gmail.original?.text).toContain('Please restart the app.');
  });

  it("keeps an answer written between Apple Mail's quoted lines and below them", async () => {
    const t = await createTenant();
    const message = await received(t, {
      text: [
        'On 25 Nov 2025, at 14:59, Support <support@shop.example> wrote:',
        '',
        '> Which size did you order?',
        '',
        'Size M.',
        '',
        '> And which colour?',
        '',
        'Blue, please.',
      ].join('\n'),
    });
    // Interleaved: each answer keeps the question above it, the first one too.
    expect(message.body).toBe('> Which size did you order?\n\nSize M.\n\n> And which colour?\n\nBlue, please.');
  });

  it('removes attributions in other languages and quoted lines a client wrapped', async () => {
    const t = await createTenant();
    const french = await received(t, {
      text: 'Merci beaucoup.\n\nLe mar. 25 nov. 2025 à 14:59, Support <support@shop.example> a écrit :\n> Votre commande est partie.\n',
    });
    expect(french.body).toBe('Merci beaucoup.');
    const wrapped = await received(t, {
      text: [
        'Got it.',
        '',
        'On Tue, Nov 25, 2025 at 2:59 PM Support <support@shop.example> wrote:',
        '> Your parcel is on its way and should reach you within three to five working',
        'days, depending on the carrier.',
        '> Tracking: 123',
      ].join('\n'),
    });
    expect(wrapped.body).toBe('Got it.');
  });

  it('removes a -- signature, device lines, a contact block, a titled sign-off and a notice, and keeps a typed sign-off', async () => {
    const t = await createTenant();
    const dashed = await received(t, { text: 'See attached.\n\nCheers,\nBob\n\n-- \nBob Builder\nBuilder Ltd' });
    expect(dashed.body).toBe('See attached.\n\nCheers,\nBob');
    const device = await received(t, { text: 'On my way.\n\nSent from my iPhone' });
    expect(device.body).toBe('On my way.');
    const contact = await received(t, {
      text: [
        'Please call me tomorrow.',
        '',
        'Best regards,',
        'Karen',
        '',
        'Karen Green',
        'Graphic Designer',
        'Tel: +44 20 7946 0958',
        'karen@green.example',
        'www.green.example',
        '',
        'This email is confidential and intended solely for the addressee. If you received this message in error, please delete it.',
      ].join('\n'),
    });
    expect(contact.body).toBe('Please call me tomorrow.\n\nBest regards,\nKaren');
    // A sign-off with a title under the name is the signature file's block.
    const titled = await received(t, { text: 'Still broken.\n\nRegards,\n\nJohn Doe\nHead of Operations\nAcme Ltd' });
    expect(titled.body).toBe('Still broken.');
  });

  it("keeps the customer's sentence that merely starts like a device line, and a forward with nothing above it", async () => {
    const t = await createTenant();
    const sentence = await received(t, {
      text: 'Sent from my phone, but the app says my card number 1234 is invalid, can you check it?',
    });
    expect(sentence.body).toBe(
      'Sent from my phone, but the app says my card number 1234 is invalid, can you check it?',
    );
    const forward = await received(
      t,
      {
        text: '---------- Forwarded message ---------\nFrom: Courier <track@courier.example>\nDate: Tue, Nov 25, 2025 at 2:59 PM\nSubject: Delivery failed\nTo: <ada@example.com>\n\nWe could not deliver your parcel.',
      },
      'original',
    );
    expect(forward.body).toContain('We could not deliver your parcel.');
    expect(forward.original).toBeNull();
  });

  it("reads Thunderbird's format=flowed reply below a quoted line that ends in a soft break", async () => {
    const t = await createTenant();
    // Thunderbird leaves the quote's last line flowed (a trailing space): the answer below it is a new
    // paragraph at quote depth 0, not the quoted line's continuation (RFC 3676 section 4.5).
    const flowed = [
      'On 11/25/2025 2:59 PM, Support wrote:',
      '> Hello Ada, your order shipped and should arrive within three ',
      '> business days. ',
      'Thanks, it arrived today. The box was a little ',
      'damaged but everything inside is fine.',
      '',
      '-- ',
      'Ada',
    ].join('\r\n');
    const message = await receivedRaw(t, 'text/plain; charset=utf-8; format=flowed', flowed);
    expect(message.body).toBe('Thanks, it arrived today. The box was a little damaged but everything inside is fine.');
    // delsp=yes: the space before each soft break was added by the sender and goes.
    const delsp = await receivedRaw(
      t,
      'text/plain; charset=utf-8; format=flowed; delsp=yes',
      'Could you send the invoice as a P \r\nDF? Thank you.',
    );
    expect(delsp.body).toBe('Could you send the invoice as a PDF? Thank you.');
  });

  it('keeps the whole text as the original when the body is cut at its limit', async () => {
    const t = await createTenant();
    const text = `${'A pasted log line that goes on.\n'.repeat(400)}END: please call me back.`;
    const message = await received(t, { text }, 'original');
    expect(message.body.length).toBeLessThanOrEqual(10_000);
    expect(message.original?.text).toContain('END: please call me back.');
  });

  it('answers original as null for a message written as is, and 404 for another account', async () => {
    const t = await createTenant();
    const message = await received(t, { text: 'Just a question: do you ship to Norway?' }, 'original');
    expect(message.body).toBe('Just a question: do you ship to Norway?');
    expect(message.original).toBeNull();
    const other = await createTenant();
    const list = await app.call('GET', '/tickets', { key: t.liveKey });
    const foreign = await app.call('GET', `/tickets/${list.body.tickets[0].id}`, {
      key: other.liveKey,
      query: { include: 'original' },
    });
    expect(foreign.status).toBe(404);
    const bad = await app.call('GET', `/tickets/${list.body.tickets[0].id}`, {
      key: t.liveKey,
      query: { include: 'everything' },
    });
    expect(bad.status).toBe(422);
  });
});

import { suppress } from '@helpdesk/core/areas/emails/suppression';
import { createProject } from '@helpdesk/core/identity/accounts';
import libmime from 'libmime';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { mailsTo, type StoredMail, uniqueAddress } from './helpers.js';

const app = await startTestApp();

const custom = (to: string, extra: Record<string, unknown> = {}) => ({
  to,
  subject: 'Hello',
  body: 'Hi there',
  ...extra,
});
const stored = (mail: StoredMail | undefined) => mail as StoredMail & { replyTo: string[] };

describe('display names in address fields (RFC 5322 name-addr)', () => {
  it('accepts them in from, replyTo, to, cc and bcc, keeps the form given on the row, and hands SES ASCII headers', async () => {
    const t = await createTenant();
    const jane = uniqueAddress('jane');
    const cc = uniqueAddress('cc');
    const bcc = uniqueAddress('bcc');
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(`"Doe, Jane" <${jane}>`, {
        from: 'Support Team <support@example.com>',
        replyTo: 'Zoë Ünïcode <help@example.com>',
        cc: [`Åsa Öberg <${cc}>`],
        bcc: [`<${bcc}>`],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.body.to).toBe(`"Doe, Jane" <${jane}>`);
    await app.drain();

    const [mail, ...more] = await mailsTo(jane);
    expect(more).toHaveLength(0);
    // What SES's SendEmail received: FromEmailAddress, Destination, ReplyToAddresses.
    expect(mail!.from).toBe('Support Team <support@example.com>');
    expect(mail!.destination.to).toEqual([`"Doe, Jane" <${jane}>`]);
    const [encodedCc] = mail!.destination.cc;
    expect(encodedCc).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= </);
    expect(encodedCc).toMatch(/^[\x20-\x7e]+$/);
    expect(libmime.decodeWords(encodedCc!)).toBe(`Åsa Öberg <${cc}>`);
    expect(mail!.destination.bcc).toEqual([bcc]);
    const [replyTo] = stored(mail).replyTo;
    expect(replyTo).toMatch(/^[\x20-\x7e]+$/);
    expect(libmime.decodeWords(replyTo!)).toBe('Zoë Ünïcode <help@example.com>');

    const row = await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(row.body).toMatchObject({
      status: 'sent',
      to: `"Doe, Jane" <${jane}>`,
      from: 'Support Team <support@example.com>',
      replyTo: 'Zoë Ünïcode <help@example.com>',
      cc: [`Åsa Öberg <${cc}>`],
      bcc: [`<${bcc}>`],
    });

    // The `to` filter matches the bare address, in any case, given bare or with a name.
    for (const to of [jane.toUpperCase(), `Someone Else <${jane}>`]) {
      const list = await app.call('GET', '/emails', { key: t.liveKey, query: { to } });
      expect(
        list.body.emails.map((e: { id: string }) => e.id),
        to,
      ).toEqual([res.body.id]);
    }
  });

  it('encodes a non-ASCII sender name as RFC 2047 encoded-words and an international domain as punycode', async () => {
    const t = await createTenant();
    const local = uniqueAddress('idn').split('@')[0]!;
    const name = 'Service client — Große Straße Kundendienst Zoë Ünïcode Ångström';
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(`Bücher <${local}@bücher.de>`, { from: `${name} <news@example.com>` }),
    });
    await app.drain();
    expect((await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey })).body).toMatchObject({
      status: 'sent',
      to: `Bücher <${local}@bücher.de>`,
    });
    const [mail] = await mailsTo(`${local}@xn--bcher-kva.de`);
    expect(mail!.destination.to[0]).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= </);
    expect(libmime.decodeWords(mail!.destination.to[0]!)).toBe(`Bücher <${local}@xn--bcher-kva.de>`);
    // Long names become several encoded-words, none over RFC 2047's 75 characters.
    const words = mail!.from.replace(/ <news@example\.com>$/, '').split(' ');
    expect(words.length).toBeGreaterThan(1);
    for (const word of words) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
    }
    expect(libmime.decodeWords(mail!.from)).toBe(`${name} <news@example.com>`);
  });

  it('sends from a project sender with a display name', async () => {
    const t = await createTenant();
    const project = await createProject({
      accountId: t.accountId,
      slug: 'named',
      name: 'Named',
      senderEmail: '"Acme, Inc." <hello@example.com>',
    });
    const to = uniqueAddress();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(to),
      headers: { 'Service-Project': project.slug },
    });
    expect(res.status).toBe(200);
    await app.drain();
    expect((await mailsTo(to))[0]!.from).toBe('"Acme, Inc." <hello@example.com>');
  });

  it('refuses forms that are not exactly one mailbox, naming the field', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await app.call('POST', '/emails/send', { key: t.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
      expect(
        res.body.error.details.fields.map((f: { field: string }) => f.field),
        JSON.stringify(body),
      ).toContain(field);
    };
    const bad = [
      'Support <support@example.com',
      'Support support@example.com>',
      'a@example.com, b@example.com',
      'Team: a@example.com, b@example.com;',
      'Bell\u0007 <a@example.com>',
      '"Line\r\nBcc: x@evil.test" <a@example.com>',
      'Sep\u2028 <a@example.com>',
      `${'N'.repeat(320)} <a@example.com>`,
      `<${'a'.repeat(250)}@example.com>`,
      'José <josé@example.com>',
      'Nobody <>',
      'a@localhost',
      '',
    ];
    for (const from of bad) await refused(custom(to, { from }), 'from');
    await refused(custom('Two <a@example.com>, <b@example.com>'), 'to');
    await refused(custom(to, { replyTo: 'x <y' }), 'replyTo');
    await refused(custom(to, { cc: ['ok@example.com', 'a@example.com, b@example.com'] }), 'cc.1');
    await refused(custom(to, { bcc: ['Group: b@example.com;'] }), 'bcc.0');
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(0);

    // An empty display name is a mailbox: sent to the bare address.
    const ok = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(`<${to}>`, { from: '"" <support@example.com>' }),
    });
    expect(ok.status).toBe(200);
    await app.drain();
    const [mail] = await mailsTo(to);
    expect(mail!.destination.to).toEqual([to]);
    expect(mail!.from).toBe('support@example.com');
  });

  it('suppresses, bounces and deduplicates by the bare address, whatever the display name', async () => {
    const t = await createTenant();
    const blocked = uniqueAddress('blocked');
    const cc = uniqueAddress('cc');
    await suppress({ projectId: t.projects.main!.id, env: 'live' }, `Old Name <${blocked.toUpperCase()}>`, 'manual');
    await suppress({ projectId: t.projects.main!.id, env: 'live' }, cc, 'manual');
    const res = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(`New Name <${blocked}>`) });
    expect(res.body).toMatchObject({ status: 'blocked', blockReason: 'manual', to: `New Name <${blocked}>` });

    const to = uniqueAddress();
    await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(to, { cc: [`Carbon Copy <${cc}>`] }) });

    // Idempotency compares bare addresses: a retry that only renames (or re-cases) the recipient replays the first send.
    const jane = uniqueAddress('jane');
    const headers = { 'Idempotency-Key': 'rename-retry' };
    const first = await app.call('POST', '/emails/send', { key: t.liveKey, headers, body: custom(`Jane <${jane}>`) });
    const again = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      headers,
      body: custom(`J. Doe <${jane.toUpperCase()}>`),
    });
    expect(again.body).toMatchObject({ id: first.body.id, deduplicated: true, to: `Jane <${jane}>` });
    const other = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      headers,
      body: custom(`Jane <${uniqueAddress()}>`),
    });
    expect(other.status).toBe(422);

    // The SES simulator's bounce (bare address) finds the named recipient's row and suppresses it.
    const bounce = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom('Bounce Test <Bounce@Simulator.AmazonSES.com>'),
    });
    await app.drain();
    expect((await app.call('GET', `/emails/${bounce.body.id}`, { key: t.liveKey })).body.status).toBe('bounced');
    const after = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom('bounce@simulator.amazonses.com'),
    });
    expect(after.body).toMatchObject({ status: 'blocked', blockReason: 'bounced' });

    const [mail] = await mailsTo(to);
    expect(mail!.destination.cc ?? []).toEqual([]);
    expect(await mailsTo(blocked)).toHaveLength(0);
    expect(await mailsTo(jane)).toHaveLength(1);
  });
});

import { extractReply } from '@helpdesk/core/areas/conversations/reply/extract';
import { describe, expect, it } from 'vitest';

/** The extractor alone, one rule per case (the SMTP path is test/conversations/replies.test.ts). */
const body = async (text: string) => (await extractReply({ text })).body;
const fromHtml = async (html: string) => (await extractReply({ html })).body;

describe('reply extraction', () => {
  it.each([
    ['English, one line', 'Ok.\n\nOn Tue, Nov 25, 2025 at 2:59 PM Support <s@shop.example> wrote:\n> Hi'],
    [
      'wrapped over three lines',
      'Ok.\n\nOn Nov 30, 2011, at 12:47 PM, Somebody <\nsomebody@shop.example>\nwrote:\n\nHi',
    ],
    ['German, verb inside', 'Ok.\n\nSupport <s@shop.example> schrieb am Di., 25. Nov. 2025 um 14:59 Uhr:\n\n> Hi'],
    ['German Apple Mail, no address', 'Ok.\n\nAm 25.11.2025 um 14:59 schrieb Support:\n\nHi'],
    ['Dutch', 'Ok.\n\nOp 25 nov. 2025 om 14:59 schreef Support <s@shop.example>:\n\nHi'],
    ['Polish', 'Ok.\n\nW dniu 25 listopada 2025 14:59 użytkownik Support <s@shop.example>\nnapisał:\n\nHi'],
    ['Russian', 'Ok.\n\nвт, 25 нояб. 2025 г. в 14:59, Support <s@shop.example>:\n\nHi'],
    ['Swedish', 'Ok.\nDen 25 november 2025 14:59:18, Support (s@shop.example) skrev:\n\nHi'],
    ['Japanese date line', 'Ok.\n\n2025年11月25日(火) 14:59 <s@shop.example>:\n> Hi'],
    ['Gmail without a verb', 'Ok.\n\n2025-11-25 14:59 GMT+01:00 Support\n\nHi'],
    ['Outlook block', 'Ok.\n\nFrom: Support\nSent: Tuesday, November 25, 2025 2:59 PM\nTo: Ada\nSubject: Order\n\nHi'],
    ['Outlook block in bold', 'Ok.\n\n*From:* Support <s@shop.example>\n*Sent:* Tuesday\n*To:* Ada\n\nHi'],
    [
      'French block',
      'Ok.\n\nDe : Support [mailto:s@shop.example]\nEnvoyé : mardi 25 novembre 2025 14:59\nÀ : Ada\nObjet : Commande\n\nHi',
    ],
    [
      'header fields run together on one line (HTML that lost its breaks)',
      'Ok.\nTemat: RE: Zamówienie 2025-11-25 14:59Nadawca: "Sklep" s@shop.example Adresat: ada@example.com\nHi',
    ],
    ['Original Message', 'Ok.\n\n-----Original Message-----\nFrom: s@shop.example\n\nHi'],
    ['Ursprüngliche Nachricht', 'Ok.\n\n-----Ursprüngliche Nachricht-----\n\nHi'],
    [
      'forward under a note',
      'Ok.\n\n---------- Forwarded message ---------\nFrom: A <a@x.example>\nDate: Tue\nSubject: S\nTo: b@x.example\n\nHi',
    ],
    ['rule and block', 'Ok.\n\n________________________________\nFrom: Support <s@shop.example>\nSent: Tuesday\n\nHi'],
    ['quote at the end', 'Ok.\n\n> Hi\n> there'],
  ])('cuts quoted history: %s', async (_, text) => {
    expect(await body(text)).toBe('Ok.');
  });

  it('keeps answers between and below announced quotes with the questions they answer, and quotes the customer shows mid-text', async () => {
    expect(
      await body('On Tue, Nov 25, 2025 at 2:59 PM Support <s@shop.example> wrote:\n> Size?\nM.\n> Colour?\nBlue.'),
    ).toBe('> Size?\nM.\n> Colour?\nBlue.');
    // Answered below only (bottom-posting): the quote goes.
    expect(await body('On Tue, Nov 25, 2025 at 2:59 PM Support <s@shop.example> wrote:\n> Size?\n\nM.')).toBe('M.');
    expect(await body('The log says:\n> disk full\nWhat now?')).toBe('The log says:\n> disk full\nWhat now?');
    // A number, a time or an address in the line above is still the customer's own words, not an attribution.
    for (const text of [
      'After upgrading to version 12 the log says:\n> disk full on /dev/sda1\nWhat now?',
      'Order 4411 shows this error:\n> payment declined (code 51)\nPlease advise.',
      'At 10:30 today the app printed:\n> Segmentation fault\nIs that known?',
      'My colleague bob@acme.test got this:\n> Access denied\nWhy?',
      'My colleague bob2@acme.test got this:\n> Access denied\nWhy?',
    ])
      expect(await body(text), text).toBe(text);
    // An address with a date, or a date with a time, in any language, is an attribution.
    expect(await body('Ok.\n\nDnia 12.03.2024 o 10:30 Jan Kowalski <jan@example.pl> napisał(a):\n> Hi')).toBe('Ok.');
    expect(await body('Ok.\n\n12.03.2024 10:30, Jan Kowalski:\n> Hi')).toBe('Ok.');
  });

  it('splits an answer that shares its line with the attribution, not a date inside one', async () => {
    expect(await body('reply On Wed, Apr 4, 2012 at 3:59 PM, bob@example.com wrote:\n> Hi')).toBe('reply');
    expect(await body('Ok.\nSupport <s@shop.example> schrieb am Do. 16. Mai 2024 um 00:02:\n\nHi')).toBe('Ok.');
  });

  it.each([
    ['-- block', 'Ok.\n\n-- \nAda Lovelace\nAnalytical Engines'],
    ['device line', 'Ok.\n\nSent from my iPhone'],
    ['localized device line', 'Ok.\n\nVon meinem iPhone gesendet'],
    ['Get Outlook in German', 'Ok.\n\nOutlook für iOS beziehen <https://aka.ms/o0ukef>'],
    ['device line above unquoted history', 'Ok.\n\nSent from my Galaxy\n\nThe earlier mail, unquoted.'],
    [
      'list footer',
      'Ok.\n\n_______________________________________________\nriak-users mailing list\nhttp://lists.example/listinfo',
    ],
    ['dashed name', 'Ok.\n\n-Abhishek Kona'],
    ['boxed signature', 'Ok.\n----------\nAda\nEmail: ada@example.com\nTel: 000-0000\n----------'],
    ['contact block', 'Ok.\n\nAda Lovelace\nEngineer\nTel: +44 20 7946 0958\nada@example.com\nwww.example.com'],
    ['sign-off with a name and a title', 'Ok.\n\nRegards,\n\nJohn Doe\nCEO @ Acme !'],
    [
      'sign-off with a title and a phone',
      'Ok.\n\nBest regards,\nJohn Doe\nHead of Support | Acme Ltd\nPhone: +44 20 7946 0000',
    ],
    [
      'German sign-off with title and company',
      'Ok.\n\nMit freundlichen Grüßen\nAnna Schmidt\nKundenservice\nBeispiel GmbH',
    ],
  ])('removes signatures: %s', async (_, text) => {
    expect(await body(text)).toBe('Ok.');
  });

  it("keeps the customer's words: a sign-off, a sentence like a device line, numbers in an answer", async () => {
    expect(await body('Ok.\n\nThanks,\nAlex')).toBe('Ok.\n\nThanks,\nAlex');
    // Below a name, a postscript or a question is the customer's, not a title.
    for (const tail of ['P.S. the invoice is wrong', 'Can you call me?', 'The second order never came.'])
      expect(await body(`Ok.\n\nThanks,\nJohn Doe\n${tail}`)).toBe(`Ok.\n\nThanks,\nJohn Doe\n${tail}`);
    expect(await body('Sent from my phone, the card 1234 fails.')).toBe('Sent from my phone, the card 1234 fails.');
    const appointment =
      'Booked:\n10/19/2017 @ 9:30 am\n1517 4th Avenue, 555-421-6780\n\nJohn Doe\nMailgun Inc\n555-941-0697';
    expect(await body(appointment)).toBe(appointment);
    expect(await body('Original message\nMore text')).toBe('Original message\nMore text');
  });

  it("removes a mail gateway's warning above the words and a notice under its heading, not a customer's caution", async () => {
    const banner =
      'CAUTION: This email originated from outside of the organization. Do not click links or open attachments unless you recognize the sender.';
    expect(await body(`${banner}\n\nThe invoice is wrong.\n\nThanks,\nAda`)).toBe(
      'The invoice is wrong.\n\nThanks,\nAda',
    );
    expect(await body(`[EXTERNAL EMAIL] Be careful with links from an external sender.\n\nOk.`)).toBe('Ok.');
    const caution = 'Caution: the heater overheats when I open attachments.\n\nPlease help.';
    expect(await body(caution)).toBe(caution);
    // A warning with nothing under it is all there is.
    expect(await body(banner)).toBe(banner);
    const notice = [
      'Ok.',
      '',
      'Disclaimer',
      '',
      'The information in this communication is confidential and intended solely for the recipient. Any disclosure is prohibited.',
      '',
      'This email has been scanned for viruses and malware, and may have been archived by Example Ltd for compliance.',
    ].join('\n');
    expect(await body(notice)).toBe('Ok.');
    const opinions = [
      'The shipment arrived damaged.',
      '',
      'Disclaimer',
      '',
      'This email and any attachments are confidential and intended solely for the addressee. Please notify the sender if you got it in error.',
      '',
      'Any views or opinions presented in this email are solely those of the author and do not necessarily represent the company.',
    ].join('\n');
    expect(await body(opinions)).toBe('The shipment arrived damaged.');
    // A heading over the customer's own paragraphs is theirs.
    const own = 'Ok.\n\nNotice\n\nThe printer shows error 42 whenever I print more than ten pages in a row today.';
    expect(await body(own)).toBe(own);
  });

  it("keeps an HTML-only mail's layout: <pre> lines and spaces, blank lines from <br><br> and Gmail's <div><br></div>, indents", async () => {
    expect(
      await fromHtml('<p>My config:</p><pre>server {\n    listen 80;\n    root /var/www;\n}</pre><p>Thanks</p>'),
    ).toBe('My config:\n\nserver {\n    listen 80;\n    root /var/www;\n}\n\nThanks');
    expect(await fromHtml('line one<br>line two<br>&nbsp;&nbsp;&nbsp;&nbsp;indented four<br><br>after blank')).toBe(
      'line one\nline two\n    indented four\n\nafter blank',
    );
    expect(
      await fromHtml('<div dir="ltr"><div>Hi,</div><div><br></div><div>&nbsp; File "a.py", line 3</div></div>'),
    ).toBe('Hi,\n\n  File "a.py", line 3');
  });

  it('reads an HTML-only mail by its paragraphs: a warning in a table above, a notice under a heading', async () => {
    const banner =
      '<table><tr><td><b>CAUTION:</b> This email originated from outside of the organization. Do not click links or open attachments unless you recognize the sender.</td></tr></table>';
    expect(await fromHtml(`${banner}<p>Our printer queue is stuck since Monday.</p>`)).toBe(
      'Our printer queue is stuck since Monday.',
    );
    const notice =
      '<p>The shipment arrived damaged.</p><p><b>Disclaimer</b></p><p>This email and any attachments are confidential and intended solely for the use of the addressee.</p>';
    expect(await fromHtml(notice)).toBe('The shipment arrived damaged.');
    expect(await fromHtml('<p>First paragraph.</p><p>Second paragraph.</p>')).toBe(
      'First paragraph.\n\nSecond paragraph.',
    );
  });

  it('never answers an empty reply: a mail that is all history stays whole', async () => {
    const forward = '---------- Forwarded message ---------\nFrom: A <a@x.example>\nDate: Tue\nTo: b@x.example\n\nHi';
    expect(await body(forward)).toBe(forward);
    expect(await body('> only a quote')).toBe('> only a quote');
  });

  it('cuts HTML at the quote containers of Gmail, Outlook, Yahoo and at a bordered Outlook header', async () => {
    const tail = '<div>Earlier mail</div>';
    expect(await fromHtml(`<div>Ok.</div><div class="gmail_quote">On … wrote:<blockquote>x</blockquote></div>`)).toBe(
      'Ok.',
    );
    expect(await fromHtml(`<div>Ok.</div><div id="divRplyFwdMsg"><b>From:</b> S</div>${tail}`)).toBe('Ok.');
    expect(await fromHtml(`<div>Ok.</div><div class="yahoo_quoted">${tail}</div>`)).toBe('Ok.');
    expect(
      await fromHtml(
        `<div><p>Ok.</p><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3pt 0cm 0cm 0cm"><p><b>From:</b> Support</p></div>${tail}</div>`,
      ),
    ).toBe('Ok.');
  });

  it('reads the HTML part when the text part shows no history but the markup does', async () => {
    const reply = await extractReply({
      text: 'Ok.\n\nSupport escreveu numa data que este leitor não conhece\nHi',
      html: '<div>Ok.</div><div class="gmail_quote">Support escreveu numa data que este leitor não conhece<br>Hi</div>',
    });
    expect(reply.body).toBe('Ok.');
    expect(reply.original).toContain('Hi');
  });
});

describe('reply extraction on hostile mail', () => {
  it('reads only the head of a huge mail, keeping the whole of it as the original', async () => {
    const text = `Hi\n\n${'> quoted line\nanswer\n'.repeat(300_000)}`;
    const reply = await extractReply({ text });
    expect(reply.original.length).toBe(text.length);
    expect(reply.body.startsWith('Hi')).toBe(true);
    expect(reply.body.length).toBeLessThan(200_001);
  });

  it('survives HTML nested deeper than any reader recurses, and a mail of rules or dashed names', async () => {
    const deep = await extractReply({ html: `${'<div>'.repeat(50_000)}Deep hello${'</div>'.repeat(50_000)}` });
    expect(deep.body).toBe('Deep hello');
    expect((await extractReply({ text: `Hi\n${'-----\n'.repeat(200_000)}` })).body).toBe('Hi');
    expect((await extractReply({ text: `Hi\n${'-Ab Cd\n'.repeat(200_000)}` })).body).toBe('Hi');
  });
});

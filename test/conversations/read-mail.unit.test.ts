import { asPlainText } from '@helpdesk/core/areas/conversations/broken-multipart';
import { readMail } from '@helpdesk/core/areas/conversations/read-mail';
import { describe, expect, it } from 'vitest';

const mail = (contentType: string, body: string) =>
  Buffer.from(
    `From: ann@example.com\r\nTo: help@example.com\r\nSubject: Broken\r\nMIME-Version: 1.0\r\n${contentType}\r\n\r\n${body}`,
    'latin1',
  );

describe('a multipart mail that holds no part', () => {
  it('is read as plain text when the boundary is missing, empty or never appears', async () => {
    for (const contentType of [
      'Content-Type: multipart/mixed',
      'Content-Type: multipart/alternative; boundary=""',
      'Content-Type: multipart/mixed;\r\n\tboundary="never-used"',
      'content-type:multipart/related',
    ]) {
      const read = await readMail(mail(contentType, 'Hello there,\r\nthe printer is on fire.\r\n'));
      expect(read.body, contentType).toBe('Hello there,\nthe printer is on fire.');
    }
  });

  it('leaves well-formed multiparts, a file-only mail and the body alone', async () => {
    const boundary = 'b1';
    const parts = [
      `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe real text.\r\n`,
      `--${boundary}\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="a.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0=\r\n`,
      `--${boundary}--\r\n`,
    ];
    const wellFormed = await readMail(mail(`Content-Type: multipart/mixed; boundary="${boundary}"`, parts.join('')));
    expect(wellFormed.body).toBe('The real text.');
    expect(wellFormed.attachments.map((a) => a.fileName)).toEqual(['a.pdf']);

    const fileOnly = await readMail(
      mail(`Content-Type: multipart/mixed; boundary="${boundary}"`, [parts[1], parts[2]].join('')),
    );
    expect(fileOnly.body).toBe('(attachments only)');

    // A well-formed multipart whose text part is empty (the parser drops it) stays an empty mail, not its MIME source.
    const empty = await readMail(
      mail(
        `Content-Type: multipart/alternative; boundary="${boundary}"`,
        `--${boundary}\r\nContent-Type: text/plain\r\n\r\n--${boundary}--\r\n`,
      ),
    );
    expect(empty.body).toBe('(no text)');

    // Only the top-level header is renamed: a header-like line of the body stays as written.
    const raw = mail('Content-Type: multipart/mixed', 'Content-Type: not a header here\r\n');
    const renamed = asPlainText(raw).toString('latin1');
    expect(renamed).toContain('\r\nx-ctype-gone: multipart/mixed\r\n');
    expect(renamed).toContain('\r\n\r\nContent-Type: not a header here');
    expect(renamed).toHaveLength(raw.length);
  });
});

describe('charsets a mail does not label usably', () => {
  const latin1 = Buffer.from('Grüße aus Köln, à bientôt\r\n', 'latin1');
  const utf8 = Buffer.from('Grüße aus Köln, à bientôt — 👍\r\n', 'utf8');
  const head = (contentType: string) =>
    Buffer.from(
      `From: ann@example.com\r\nTo: help@example.com\r\nSubject: Hi\r\n${contentType}Content-Transfer-Encoding: 8bit\r\n\r\n`,
    );
  const read = async (contentType: string, body: Buffer) =>
    (await readMail(Buffer.concat([head(contentType), body]))).body;

  it('reads 8-bit text without a charset as UTF-8 when it is, else as windows-1252', async () => {
    expect(await read('Content-Type: text/plain\r\n', latin1)).toBe('Grüße aus Köln, à bientôt');
    expect(await read('', latin1)).toBe('Grüße aus Köln, à bientôt');
    expect(await read('Content-Type: text/plain; format=flowed\r\n', latin1)).toBe('Grüße aus Köln, à bientôt');
    expect(await read('Content-Type: text/plain\r\n', utf8)).toBe('Grüße aus Köln, à bientôt — 👍');
    expect(await read('', utf8)).toBe('Grüße aus Köln, à bientôt — 👍');
  });

  it('reads a raw 8-bit Latin-1 subject and sender name as windows-1252, and raw UTF-8 ones as UTF-8', async () => {
    const raw = (subject: string, encoding: BufferEncoding) =>
      Buffer.concat([
        Buffer.from(
          `From: Ren${encoding === 'latin1' ? '\u00e9' : 'é'}e <r@example.com>\r\nSubject: ${subject}\r\n`,
          encoding,
        ),
        Buffer.from('To: help@example.com\r\n\r\nHi\r\n'),
      ]);
    for (const encoding of ['latin1', 'utf8'] as const) {
      const mail = await readMail(raw('Caf\u00e9 cr\u00e8me', encoding));
      expect([mail.subject, mail.from?.name], encoding).toEqual(['Café crème', 'Renée']);
    }
  });

  it('reads a part labelled US-ASCII that holds UTF-8 as UTF-8, and one labelled Latin-1 as labelled', async () => {
    expect(await read('Content-Type: text/plain; charset=us-ascii\r\n', utf8)).toBe('Grüße aus Köln, à bientôt — 👍');
    expect(await read('Content-Type: text/plain; charset="US-ASCII"\r\n', utf8)).toBe('Grüße aus Köln, à bientôt — 👍');
    expect(await read('Content-Type: text/plain; charset=iso-8859-1\r\n', latin1)).toBe('Grüße aus Köln, à bientôt');
  });

  it("keeps windows-1252's curly quotes, dashes and euro sign (Outlook's =92), in the text, HTML, subject and names", async () => {
    const raw = Buffer.from(
      'From: =?windows-1252?Q?Ren=E9e_=93RJ=94?= <renee@example.com>\r\nTo: help@example.com\r\n' +
        'Subject: =?windows-1252?Q?Price_=80_10_=96_too_much?=\r\nMIME-Version: 1.0\r\n' +
        'Content-Type: multipart/mixed; boundary="b"\r\n\r\n' +
        '--b\r\nContent-Type: text/plain; charset="Windows-1252"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n' +
        'I=92m sure it=92s =93broken=94 =96 costs =8010=85\r\n' +
        '--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="=?windows-1252?Q?=93notes=94.txt?="\r\n\r\nx\r\n--b--\r\n',
      'latin1',
    );
    const mail = await readMail(raw);
    expect(mail.body).toBe('I’m sure it’s “broken” – costs €10…');
    expect(mail.subject).toBe('Price € 10 – too much');
    expect(mail.from?.name).toBe('Renée “RJ”');
    expect(mail.attachments.map((a) => a.fileName)).toEqual(['“notes”.txt']);

    const html = Buffer.from(
      'From: a@example.com\r\nTo: help@example.com\r\nSubject: x\r\nMIME-Version: 1.0\r\n' +
        'Content-Type: text/html; charset=windows-1252\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n' +
        '<html><body><p>We=92re =93ready=94</p></body></html>\r\n',
      'latin1',
    );
    expect((await readMail(html)).body).toBe('We’re “ready”');
  });
});

describe('the From mailboxes a mail names', () => {
  const from = async (header: string) =>
    (await readMail(Buffer.from(`${header}\r\nTo: help@example.com\r\nSubject: x\r\n\r\nHi\r\n`))).fromCount;

  it('counts every address however it is spelled, so a second one is never taken for the sender', async () => {
    for (const header of [
      'From: Jose <jose@gmail.test> <mallory@evil.test>',
      'From: jose@gmail.test mallory@evil.test',
      'From: <jose@gmail.test><mallory@evil.test>',
      'From: Jose <jose@gmail.test>\r\n <mallory@evil.test>',
      'From: <mallory@evil.test<jose@gmail.test>>',
      'From: a@x.test, b@y.test',
      'From: a@x.test\r\nFrom: b@y.test',
    ])
      expect(await from(header), header).toBeGreaterThan(1);
  });

  it('counts one for one address with any display name, quoted or commented', async () => {
    for (const header of [
      'From: jose@gmail.test',
      'From: Jose Díaz <jose@gmail.test>',
      'From: "jose@gmail.test" <mallory@evil.test>',
      'From: "Jose \\" @ home" <jose@gmail.test>',
      'From: jose@gmail.test (Jose @ work)',
      'From: =?utf-8?q?Jos=C3=A9?= <jose@gmail.test>',
    ])
      expect(await from(header), header).toBe(1);
  });
});

describe("the sender's name", () => {
  it('is dropped when it holds an address, which staff would read as the sender', async () => {
    const name = async (header: string) =>
      (await readMail(Buffer.from(`${header}\r\nTo: help@example.com\r\nSubject: x\r\n\r\nHi\r\n`))).from;
    expect(await name('From: "jose@gmail.test" <mallory@evil.test>')).toEqual({ address: 'mallory@evil.test' });
    expect(await name('From: =?utf-8?q?jose=40gmail.test?= <mallory@evil.test>')).toEqual({
      address: 'mallory@evil.test',
    });
    expect(await name('From: "Jose @ home" <jose@gmail.test>')).toEqual({
      address: 'jose@gmail.test',
      name: 'Jose @ home',
    });
  });
});

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

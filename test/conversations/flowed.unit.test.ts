import { decodeFlowed, unflowedRaw } from '@helpdesk/core/areas/conversations/flowed';
import { describe, expect, it } from 'vitest';

describe('format=flowed (RFC 3676)', () => {
  it('joins soft breaks within one quote depth only, and keeps hard breaks', () => {
    expect(decodeFlowed('> Hi \nHello', false)).toBe('> Hi \nHello');
    expect(decodeFlowed('>> deep \n>> quote\n> shallow \n> one\nmine', false)).toBe(
      '>> deep quote\n> shallow one\nmine',
    );
    expect(decodeFlowed('a soft \nbreak\nhard\nbreak', false)).toBe('a soft break\nhard\nbreak');
  });

  it('removes space stuffing and the space delsp added, and never joins the signature separator', () => {
    expect(decodeFlowed(' From the start \n >quoted-looking', false)).toBe('From the start >quoted-looking');
    expect(decodeFlowed('invo \nice', true)).toBe('invoice');
    expect(decodeFlowed('Thanks\n-- \nAda', false)).toBe('Thanks\n-- \nAda');
  });

  it('renames the one flowed text part of a raw mail, and leaves other mail as it is', () => {
    const flowed = Buffer.from(
      'Subject: x\r\nContent-Type: text/plain;\r\n format="flowed"; delsp=yes\r\n\r\nHi \r\nthere',
    );
    const read = unflowedRaw(flowed);
    expect(read?.delSp).toBe(true);
    expect(read?.raw.length).toBe(flowed.length);
    expect(read?.raw.toString()).not.toMatch(/format=/i);
    expect(unflowedRaw(Buffer.from('Content-Type: text/plain; charset=utf-8\r\n\r\nHi \r\nthere'))).toBeUndefined();
    const twoParts = Buffer.from(
      'Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; format=flowed\r\n\r\nA \r\n--b\r\nContent-Type: text/plain\r\n\r\nB\r\n--b--',
    );
    expect(unflowedRaw(twoParts)).toBeUndefined();
  });
});

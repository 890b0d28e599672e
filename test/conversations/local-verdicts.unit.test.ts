import { describe, expect, it } from 'vitest';
import { LOCAL_AUTH_HEADER, localVerdicts } from '../../packages/local/src/smtp.js';

/** The SMTP stand-in's authentication verdicts, read from the header a local sender sets. */
const status = (raw: string) => localVerdicts(Buffer.from(raw, 'latin1')).spfVerdict.status;

describe('local inbound verdicts', () => {
  it('reads the header with CRLF or bare LF line ends, and only in the header', () => {
    expect(status(`From: a@x.example\r\n${LOCAL_AUTH_HEADER}: pass\r\n\r\nHi`)).toBe('PASS');
    expect(status(`From: a@x.example\n${LOCAL_AUTH_HEADER}: pass\n\nHi`)).toBe('PASS');
    expect(status(`From: a@x.example\n${LOCAL_AUTH_HEADER}: fail\n\nHi`)).toBe('FAIL');
    expect(status(`From: a@x.example\n\n${LOCAL_AUTH_HEADER}: pass\n`)).toBe('GRAY');
    expect(status(`From: a@x.example\r\nSubject: s\r\n\r\nHi`)).toBe('GRAY');
  });
});

import { parameterize } from '@helpdesk/core/areas/logs/tokens';
import { describe, expect, it } from 'vitest';

/** [class, message, parameterized]: every class of issue 17, in the forms real logs write it. */
const CASES: [string, string, string][] = [
  ['signed number', 'offset -12 and +3.5 and 42', 'offset <num> and <num> and <num>'],
  ['minus inside an id', 'blk_-6952295868487656571 and blk_38865049064139660', '<id> and <id>'],
  [
    'identifier with digits',
    'subdir5 subdir51 user test9 appattempt_1445144423722_0020_000001',
    '<id> <id> user <id> <id>',
  ],
  ['hex', 'ptr 0xFF doc 507f1f77bcf86cd799439011 sha 9f86d081884c7d65', 'ptr <hex> doc <hex> sha <hex>'],
  ['plain words that look hex', 'decade facade deadbeef', 'decade facade deadbeef'],
  ['IPv4 and IPv6', 'from 10.0.12.7 and 2001:db8::ff00:42:8329 and ::1', 'from <ip> and <ip> and <ip>'],
  ['IPv4 with a port', 'connection request /10.10.34.11:45307', 'connection request /<ip>'],
  ['host:port', 'connect to localhost:8080 and db-01.prod.example.com:5432', 'connect to <host> and <host>'],
  ['host name', 'reverse mapping for ns.marryaldkfaczcz.com failed', 'reverse mapping for <host> failed'],
  ['dotted class name stays', 'at java.lang.NullPointerException', 'at java.lang.NullPointerException'],
  [
    'absolute and relative paths',
    'open /var/log/app.log and ./data/x.json and /tmp',
    'open <path> and <path> and <path>',
  ],
  ['Windows path', 'read C:\\temp\\a.txt ok', 'read <path> ok'],
  ['URL', 'GET https://api.example.com/v1/users/42?x=1 failed', 'GET <url> failed'],
  ['email', 'Mail to bob.smith+x@example.co.uk bounced', 'Mail to <email> bounced'],
  ['UUID', 'order 3f2b8c1e-1a2b-4c3d-8e9f-0123456789ab missing', 'order <uuid> missing'],
  ['ISO date-time', 'at 2026-01-31T10:00:00.123Z, on 2026-01-31', 'at <date>, on <date>'],
  [
    'other date formats',
    'on 1/2/2026 and 2005.06.03 and 2005-06-03-15.42.50.675872',
    'on <date> and <date> and <date>',
  ],
  ['dates with month names', 'Jun 14 15:16:01 and Sat Jun 11 2005', '<date> and <date>'],
  ['times', 'at 12:30:45 and 18:01:47,978', 'at <time> and <time>'],
  ['numbers with units', 'took 250ms size 12KB 3.5GB', 'took <num> size <num> <num>'],
  ['key=value values', 'uid=0 euid=0 tty=NODEVssh user=bob', 'uid=<val> euid=<val> tty=<val> user=<val>'],
  [
    'quotes are no class',
    '"GET /a HTTP/1.1" and "POST /a HTTP/1.1"',
    '"GET <path> HTTP/<num>" and "POST <path> HTTP/<num>"',
  ],
  ['apostrophes stay', "can't find user 'bob'", "can't find user 'bob'"],
  [
    'an upper-case name with a version is a word, other words with digits are ids',
    'open through proxy SOCKS5 and HTTP2 as test9 on CPU0x2',
    'open through proxy SOCKS5 and HTTP2 as <id> on <id>',
  ],
];

describe('token classes', () => {
  it.each(CASES)('%s', (_, message, expected) => {
    expect(parameterize(message)).toBe(expected);
  });

  it('keeps the words that tell events apart (the old quoted-string rule merged these)', () => {
    const pairs = [
      ['"GET /a HTTP/1.1" 200', '"POST /a HTTP/1.1" 200'],
      ["user 'bob' created", "user 'bob' deleted"],
      ['cupsd startup succeeded', 'cupsd shutdown succeeded'],
    ];
    for (const [a, b] of pairs) expect(parameterize(a!)).not.toBe(parameterize(b!));
  });
});

import { fingerprintOf, inAppFrames, issueIdFor, parameterize } from '@helpdesk/core/areas/logs/fingerprint';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const stackAt = (top: string) => `TypeError: Cannot read properties of undefined (reading 'id')
    at ${top}
    at async Promise.all (index 0)
    at Layer.handle (/app/node_modules/express/lib/router/layer.js:95:5)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at runOrder (/app/src/orders/run.ts:12:3)`;

describe('parameterize', () => {
  it('replaces emails, URLs, IPs, UUIDs, hex ids, dates and times and numbers, and leaves quoted words alone', () => {
    expect(parameterize('Mail to bob.smith+x@example.co.uk bounced')).toBe('Mail to <email> bounced');
    expect(parameterize('GET https://api.example.com/v1/users/42?x=1 failed')).toBe('GET <url> failed');
    expect(parameterize('from 10.0.12.7 and 2001:db8::ff00:42:8329 and ::1')).toBe('from <ip> and <ip> and <ip>');
    expect(parameterize('order 3f2b8c1e-1a2b-4c3d-8e9f-0123456789ab missing')).toBe('order <uuid> missing');
    expect(parameterize('doc 507f1f77bcf86cd799439011 sha 9f86d081884c7d65 ptr 0xFF')).toBe(
      'doc <hex> sha <hex> ptr <hex>',
    );
    expect(parameterize('at 2026-01-31T10:00:00.123Z, on 2026-01-31 and 1/2/2026 at 12:30:45')).toBe(
      'at <date>, on <date> and <date> at <time>',
    );
    // Changed by issue 17: a number with a unit is one value; quotes are no class (they merged "GET …" and "POST …").
    expect(parameterize('retry 3 of 5 after 250ms, price 12.50')).toBe('retry <num> of <num> after <num>, price <num>');
    expect(parameterize(`can't find user 'bob' or "alice" or \`carol\``)).toBe(
      `can't find user 'bob' or "alice" or \`carol\``,
    );
  });

  it('applies the rules in order: a URL or a UUID is not split into numbers, a quoted number is a number', () => {
    expect(parameterize('visit http://x.io/42 as a@b.io')).toBe('visit <url> as <email>');
    expect(parameterize("id '42' and 42")).toBe("id '<num>' and <num>");
  });

  it('leaves words and plain hex-looking words alone; a word with digits is data (changed by issue 17)', () => {
    expect(parameterize('http2 utf8 decade facade deadbeef')).toBe('<id> <id> decade facade deadbeef');
  });
});

describe('inAppFrames', () => {
  it('keeps function and file of in-app frames only, without line numbers', () => {
    expect(inAppFrames(stackAt('handler (/app/src/orders.ts:10:5)'))).toEqual([
      'handler /app/src/orders.ts',
      'runOrder /app/src/orders/run.ts',
    ]);
    expect(
      inAppFrames(
        'Error\n    at /app/src/main.js:1:1\n    at new Service (file:///app/src/s.js:3:1)\nrender@https://x.io/app.js:1:2',
      ),
    ).toEqual(['<anonymous> /app/src/main.js', 'new Service /app/src/s.js', 'render https://x.io/app.js']);
  });
});

describe('fingerprintOf', () => {
  it('groups two messages that differ only in an id', () => {
    const a = fingerprintOf({
      level: 'error',
      scope: 'billing',
      message: 'Invoice 3f2b8c1e-1a2b-4c3d-8e9f-0123456789ab failed for user 17',
    });
    const b = fingerprintOf({
      level: 'error',
      scope: 'billing',
      message: 'Invoice 9a1b8c1e-ffff-4c3d-8e9f-aaaaaaaaaaaa failed for user 4242',
    });
    expect(a).toEqual(b);
    expect(a.title).toBe('Invoice <uuid> failed for user <num>');
  });

  it('separates by scope, not by level, when there is no stack (level dropped by issue 17)', () => {
    const base = { level: 'error' as const, scope: 'billing', message: 'Timeout after 30s' };
    expect(fingerprintOf(base).fingerprint).not.toBe(fingerprintOf({ ...base, scope: 'auth' }).fingerprint);
    expect(fingerprintOf(base).fingerprint).toBe(fingerprintOf({ ...base, level: 'warn' }).fingerprint);
    expect(fingerprintOf(base).learn).toBe(true);
  });

  it('groups by the top in-app frames: line numbers and messages do not matter, a different top does', () => {
    const one = fingerprintOf({
      level: 'error',
      message: 'user 1 missing',
      stack: stackAt('handler (/app/src/orders.ts:10:5)'),
    });
    const moved = fingerprintOf({
      level: 'fatal',
      message: 'other text',
      stack: stackAt('handler (/app/src/orders.ts:99:1)'),
    });
    const other = fingerprintOf({
      level: 'error',
      message: 'user 1 missing',
      stack: stackAt('render (/app/src/view.ts:10:5)'),
    });
    expect(moved.fingerprint).toBe(one.fingerprint);
    expect(other.fingerprint).not.toBe(one.fingerprint);
  });

  it('falls back to the message when a stack has no in-app frame', () => {
    const stack = 'Error\n    at x (/app/node_modules/a/b.js:1:1)\n    at node:internal/timers:1:1';
    expect(fingerprintOf({ level: 'error', message: 'boom 1', stack })).toEqual(
      fingerprintOf({ level: 'error', message: 'boom 2' }),
    );
  });

  it("uses the caller's fingerprint over stack and message", () => {
    const a = fingerprintOf({
      level: 'error',
      message: 'a',
      stack: stackAt('a (/app/a.ts:1:1)'),
      fingerprint: ['db', 'timeout'],
    });
    const b = fingerprintOf({ level: 'info', message: 'b', scope: 'x', fingerprint: ['db', 'timeout'] });
    const c = fingerprintOf({ level: 'error', message: 'a', stack: stackAt('a (/app/a.ts:1:1)'), fingerprint: ['db'] });
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(c.fingerprint).not.toBe(a.fingerprint);
  });

  it('groups messages that differ only in numbers, UUIDs, emails, IPs and hex ids (property)', () => {
    const pairOf = (arb: fc.Arbitrary<string>) => fc.tuple(arb, arb);
    const variable = fc.oneof(
      pairOf(fc.integer({ min: 0, max: 10_000_000 }).map(String)),
      pairOf(fc.uuid()),
      pairOf(fc.emailAddress().filter((e) => !/['`]/.test(e))),
      pairOf(fc.ipV4()),
      pairOf(fc.stringMatching(/^[0-9a-f]{24}$/).filter((s) => /\d/.test(s) && /[a-f]/.test(s))),
    );
    fc.assert(
      fc.property(variable, variable, fc.constantFrom('billing', 'auth'), ([a1, b1], [a2, b2], scope) => {
        const message = (x: string, y: string) => `Payment ${x} declined for ${y}`;
        const one = fingerprintOf({ level: 'error', scope, message: message(a1, a2) });
        const two = fingerprintOf({ level: 'error', scope, message: message(b1, b2) });
        expect(two).toEqual(one);
      }),
    );
  });
});

describe('issueIdFor', () => {
  it('is a deterministic UUID per project, environment and fingerprint', () => {
    const id = issueIdFor('p1', 'live', 'abc');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(issueIdFor('p1', 'live', 'abc')).toBe(id);
    expect(issueIdFor('p1', 'sandbox', 'abc')).not.toBe(id);
    expect(issueIdFor('p2', 'live', 'abc')).not.toBe(id);
  });
});

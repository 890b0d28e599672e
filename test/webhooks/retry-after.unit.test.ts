import { retryAfterSeconds } from '@helpdesk/core/areas/webhooks/deliver';
import { describe, expect, it } from 'vitest';

describe("a receiver's Retry-After", () => {
  const now = Date.parse('2026-11-26T10:00:00Z');
  it('reads delay-seconds and HTTP dates, within a second and a day', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 0 ', now)).toBe(1);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 10:05:00 GMT', now)).toBe(300);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 09:00:00 GMT', now)).toBe(1);
    expect(retryAfterSeconds('9999999', now)).toBe(86_400);
  });
  it('ignores what it cannot read', () => {
    for (const bad of [undefined, '', 'soon', '-5', '1.5', 'x'.repeat(100)])
      expect(retryAfterSeconds(bad, now)).toBeUndefined();
  });
});

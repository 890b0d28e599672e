import { ipAllowed, isValidCidr } from '@helpdesk/core/identity/ip-allowlist';
import { describe, expect, it } from 'vitest';

describe('API key IP allow-lists', () => {
  it.each([
    ['10.1.2.3', ['10.0.0.0/8'], true],
    ['11.1.2.3', ['10.0.0.0/8'], false],
    ['::ffff:10.1.2.3', ['10.0.0.0/8'], true],
    ['2001:db8::1', ['2001:db8::/32'], true],
    ['2001:db9::1', ['2001:db8::/32'], false],
    ['10.1.2.3', ['2001:db8::/32'], false],
    ['1.2.3.4', ['1.2.3.4'], true],
    ['1.2.3.5', ['1.2.3.4'], false],
    ['::1', ['::1'], true],
    ['1.2.3.4', ['0.0.0.0/0'], true],
    ['1.2.3.4', ['not-an-ip', '1.2.3.0/24'], true],
    ['not-an-ip', ['0.0.0.0/0'], false],
    ['1.2.3.4', [], true],
  ])('%s against %j: %s', (ip, list, allowed) => {
    expect(ipAllowed(ip, list)).toBe(allowed);
  });

  it.each([
    ['10.0.0.0/8', true],
    ['1.2.3.4', true],
    ['::/0', true],
    ['2001:db8::/32', true],
    ['10.0.0.0/33', false],
    ['::/129', false],
    ['1.2.3.4/', false],
    ['1.2.3.4/8/1', false],
    ['1.2.3.4/-1', false],
    ['256.1.1.1', false],
    ['not-an-ip', false],
  ])('%s is a valid entry: %s', (entry, valid) => {
    expect(isValidCidr(entry)).toBe(valid);
  });
});

import { encodeValue } from '@helpdesk/core/areas/ticket-fields/field-values';
import { describe, expect, it } from 'vitest';

describe('value index keys', () => {
  it('sort numbers in numeric order, negative, fractional and huge ones included', () => {
    const numbers = [
      -1e300,
      -1234.5,
      -1,
      -0.5,
      -Number.MIN_VALUE,
      0,
      Number.MIN_VALUE,
      0.25,
      1,
      2,
      10,
      99.99,
      1e21,
      1e300,
    ];
    const shuffled = [...numbers].sort(() => 0.5 - Math.random());
    const byKey = shuffled.sort((a, b) => (encodeValue('number', a) < encodeValue('number', b) ? -1 : 1));
    expect(byKey).toEqual(numbers);
    expect(encodeValue('number', -0)).toBe(encodeValue('number', 0));
    for (let i = 0; i < 500; i++) {
      const [a, b] = [(Math.random() - 0.5) * 10 ** (i % 12), (Math.random() - 0.5) * 10 ** (i % 7)];
      expect(encodeValue('number', a) < encodeValue('number', b), `${a} < ${b}`).toBe(a < b);
    }
  });

  it('never lets one text value be the prefix of another key', () => {
    for (const value of ['a|b', 'a', 'x%7Cy', 'ümlaut', 'a b']) expect(encodeValue('text', value)).not.toContain('|');
  });
});

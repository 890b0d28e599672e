import { withinCap } from '@helpdesk/core/kernel/cap';
import { describe, expect, it } from 'vitest';

describe('withinCap', () => {
  it('keeps the first items in creation order, the id breaking ties, and refuses one that is gone', () => {
    const items = [
      { id: 'c', createdAt: '2026-01-01T00:00:01.000Z' },
      { id: 'b', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'a', createdAt: '2026-01-01T00:00:01.000Z' },
    ];
    const within = (id: string) => withinCap(items, 2, (t) => t.id, id);
    expect(['a', 'b', 'c'].map(within)).toEqual([true, true, false]);
    expect(within('missing')).toBe(false);
  });
});

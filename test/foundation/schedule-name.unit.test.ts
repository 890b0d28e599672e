import { scheduleName } from '@helpdesk/core/kernel/ports/scheduler';
import { describe, expect, it } from 'vitest';

describe('EventBridge schedule names', () => {
  it('keeps a short job id and gives long ones that share a prefix different names of at most 64 characters', () => {
    const id = '0b7c3e2a-52a4-4f4e-8f0e-0d6f0c1d2e3f';
    expect(scheduleName(id)).toBe(`hd-${id}`);
    const timer = (dueAt: string) => `sla-${id}-firstReply-breach-${dueAt}`;
    const names = ['2031-03-31T08:00:00.000Z', '2031-03-31T09:00:00.000Z'].map((d) => scheduleName(timer(d)));
    expect(names[0]).not.toBe(names[1]);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(/^[0-9a-zA-Z-_.]+$/);
    }
    expect(scheduleName(timer('2031-03-31T08:00:00.000Z'))).toBe(names[0]);
  });
});

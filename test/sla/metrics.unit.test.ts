import { bucketOf, nextMetrics, percentiles } from '@helpdesk/core/areas/sla/metrics';
import { describe, expect, it } from 'vitest';

describe('ticket metrics', () => {
  it('records the first reply once, the full resolution, replies and reopenings', () => {
    const created = '2026-11-30T10:00:00.000Z';
    let m = nextMetrics(undefined, { staffReply: true, from: 'new', to: 'open' }, created, '2026-11-30T10:30:00.000Z');
    m = nextMetrics(m, { staffReply: true, from: 'open', to: 'open' }, created, '2026-11-30T11:00:00.000Z');
    expect(m).toMatchObject({ replies: 2, reopens: 0, firstReply: { calendar: 30, business: null } });
    m = nextMetrics(m, { staffReply: false, from: 'open', to: 'resolved' }, created, '2026-11-30T12:00:00.000Z');
    expect(m.resolution?.calendar).toBe(120);
    m = nextMetrics(m, { staffReply: false, from: 'resolved', to: 'open' }, created, '2026-11-30T13:00:00.000Z');
    expect(m).toMatchObject({ reopens: 1 });
    expect(m.resolution).toBeUndefined();
    m = nextMetrics(m, { staffReply: false, from: 'open', to: 'closed' }, created, '2026-11-30T14:00:00.000Z');
    expect(m.resolution?.calendar).toBe(240);
  });

  it('reads medians and 90th percentiles from 25% buckets within about 12%', () => {
    const values = Array.from({ length: 1000 }, (_, i) => 1 + i * 3); // 1 .. 2998 minutes
    const histogram = new Map<number, number>();
    for (const x of values) histogram.set(bucketOf(x), (histogram.get(bucketOf(x)) ?? 0) + 1);
    const p = percentiles(histogram);
    expect(p.count).toBe(1000);
    expect(Math.abs(p.medianMinutes! - 1500) / 1500).toBeLessThan(0.12);
    expect(Math.abs(p.p90Minutes! - 2700) / 2700).toBeLessThan(0.12);
    expect(percentiles(new Map())).toEqual({ count: 0, medianMinutes: null, p90Minutes: null });
  });
});

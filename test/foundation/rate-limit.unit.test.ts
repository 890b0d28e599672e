import { LOCAL_SHARE, rateCounter } from '@helpdesk/core/identity/rate-limit';
import { describe, expect, it } from 'vitest';

/**
 * The rate limit over many Lambda instances: each instance is its own counter (module state), all of
 * them add to one shared per-minute total (a stand-in for the DynamoDB item, with a delay so that
 * flushes overlap as they do over the network).
 */
function sharedTotal() {
  const totals = new Map<string, number>();
  let writes = 0;
  const add = async (keyId: string, minute: number, amount: number) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    writes++;
    const key = `${keyId}#${minute}`;
    const total = (totals.get(key) ?? 0) + amount;
    totals.set(key, total);
    return total;
  };
  return { add, total: (keyId: string, minute: number) => totals.get(`${keyId}#${minute}`) ?? 0, writes: () => writes };
}

const NOW = Date.UTC(2026, 10, 26, 12, 0, 5);
const MINUTE = Math.floor(NOW / 60_000);

/** The documented bound: each instance that has read the total this minute may spend one local budget. */
const bound = (limit: number, instances: number) => instances * Math.floor((limit - 1) / LOCAL_SHARE);

describe('rate limit over many instances', () => {
  it('counts a burst spread over 1,000 fresh instances request by request: the 101st of 100 is refused', async () => {
    const store = sharedTotal();
    const instances = Array.from({ length: 1000 }, () => rateCounter(store.add));
    const states = await Promise.all(instances.map((count) => count('k1', 100, NOW)));
    expect(states.filter((s) => !s.exceeded)).toHaveLength(100);
    expect(store.total('k1', MINUTE)).toBe(1000);
  });

  it('keeps the default limit exact however requests spread over instances and minutes', async () => {
    const store = sharedTotal();
    const instances = Array.from({ length: 50 }, () => rateCounter(store.add));
    let accepted = 0;
    for (let round = 0; round < 10; round++) {
      const states = await Promise.all(instances.map((count) => count('k2', 100, NOW + round)));
      accepted += states.filter((s) => !s.exceeded).length;
    }
    expect(accepted).toBe(100);
    expect(store.total('k2', MINUTE)).toBe(500);
    // A new minute starts from zero on every instance.
    const next = await Promise.all(instances.map((count) => count('k2', 100, NOW + 60_000)));
    expect(next.filter((s) => !s.exceeded)).toHaveLength(50);
  });

  it('holds the documented bound for a large limit while batching the shared writes', async () => {
    const store = sharedTotal();
    const limit = 10_000;
    const instanceCount = 40;
    const instances = Array.from({ length: instanceCount }, () => rateCounter(store.add));
    let accepted = 0;
    // 15,000 requests: each instance serves its share one after another, all instances at once.
    await Promise.all(
      instances.map(async (count) => {
        for (let i = 0; i < 15_000 / instanceCount; i++) if (!(await count('k3', limit, NOW)).exceeded) accepted++;
      }),
    );
    expect(accepted).toBeGreaterThanOrEqual(limit);
    expect(accepted).toBeLessThanOrEqual(limit + bound(limit, instanceCount));
    // Well under the limit an instance batches: far fewer writes than requests.
    expect(store.writes()).toBeLessThan(15_000 / 2);
  });

  it('answers X-RateLimit numbers from the shared total', async () => {
    const store = sharedTotal();
    const [a, b] = [rateCounter(store.add), rateCounter(store.add)];
    expect(await a('k4', 3, NOW)).toMatchObject({ limit: 3, remaining: 2, exceeded: false });
    expect(await b('k4', 3, NOW)).toMatchObject({ remaining: 1, exceeded: false });
    expect(await a('k4', 3, NOW)).toMatchObject({ remaining: 0, exceeded: false });
    expect(await b('k4', 3, NOW)).toMatchObject({ remaining: 0, exceeded: true, reset: (MINUTE + 1) * 60 });
  });
});

import { randomUUID } from 'node:crypto';
import { RateWindow } from '@helpdesk/core/identity/entities';
import { countRequest } from '@helpdesk/core/identity/rate-limit';
import { describe, expect, it } from 'vitest';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 5);
const minuteOf = (now: number) => String(Math.floor(now / 60_000));
const sharedCount = async (keyId: string, now = T0) =>
  (await RateWindow.get({ keyId, window: minuteOf(now) }).go()).data?.count;
/** Another Lambda instance adding its batch to the shared counter. */
const otherInstanceAdds = (keyId: string, n: number, now = T0) =>
  RateWindow.update({ keyId, window: minuteOf(now) })
    .add({ count: n })
    .go();

describe('rate limit counting (per instance, in batches while well under the limit)', () => {
  it('writes the first request of a minute, then counts locally while under budget and adds the batch in one write', async () => {
    const keyId = randomUUID();
    // The first request reads the shared total (1); limit 10,000 then leaves a budget of floor(9,999 / 100) = 99.
    expect(await countRequest(keyId, 10_000, T0)).toMatchObject({ remaining: 9_999, exceeded: false });
    expect(await sharedCount(keyId)).toBe(1);
    for (let i = 2; i <= 100; i++) {
      const state = await countRequest(keyId, 10_000, T0);
      expect(state).toMatchObject({ remaining: 10_000 - i, exceeded: false });
    }
    expect(await sharedCount(keyId)).toBe(1);
    const flushed = await countRequest(keyId, 10_000, T0);
    expect(flushed.remaining).toBe(10_000 - 101);
    expect(await sharedCount(keyId)).toBe(101);
  });

  it("learns the other instances' counts at each write and counts exactly near the limit", async () => {
    const keyId = randomUUID();
    await otherInstanceAdds(keyId, 985);
    // This instance's first request is a write: it learns 986, which leaves no local budget (14 / 100).
    expect(await countRequest(keyId, 1_000, T0)).toMatchObject({ remaining: 14, exceeded: false });
    for (let i = 1; i <= 14; i++) expect((await countRequest(keyId, 1_000, T0)).exceeded).toBe(false);
    expect(await sharedCount(keyId)).toBe(1_000);
    const over = await countRequest(keyId, 1_000, T0);
    expect(over).toMatchObject({ remaining: 0, exceeded: true });
    expect(await sharedCount(keyId)).toBe(1_001);
  });

  it('starts every minute afresh, locally and in the shared counter', async () => {
    const keyId = randomUUID();
    for (let i = 0; i < 3; i++) await countRequest(keyId, 2, T0);
    expect((await countRequest(keyId, 2, T0)).exceeded).toBe(true);
    const next = T0 + 60_000;
    expect(await countRequest(keyId, 2, next)).toMatchObject({
      remaining: 1,
      exceeded: false,
      reset: Math.floor(next / 60_000) * 60 + 60,
    });
    expect(await sharedCount(keyId, next)).toBe(1);
  });
});

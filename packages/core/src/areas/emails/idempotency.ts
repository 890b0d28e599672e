import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isExpired, ttlIn } from '../../kernel/db/client.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { IdempotencyRecord } from './entities.js';
import type { SendResult } from './present.js';

const WINDOW_SECONDS = 24 * 60 * 60;
/** An unfinished claim older than this is taken to be abandoned (its Lambda died) and may be taken over. */
const LEASE_MS = 30_000;
/** How long a request waits for a concurrent one with the same key before answering 409. */
const WAIT_MS = 15_000;
const POLL_MS = 50;

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;

export const requestHash = (request: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(canonical(request)))
    .digest('hex');

/**
 * Runs `send` at most once per Idempotency-Key within 24 hours. The first request claims the key with
 * a conditional put (storing its body hash); later ones get the stored result with `deduplicated`
 * true, waiting while the first is still in flight. A different body under the key is 422. A failed
 * send releases the key, so the client may retry it.
 */
export async function idempotent(
  ctx: TenantContext,
  key: string,
  request: unknown,
  send: () => Promise<SendResult>,
): Promise<SendResult> {
  const id = { projectId: ctx.projectId, env: ctx.env, key };
  const hash = requestHash(request);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = Date.now();
    try {
      await IdempotencyRecord.put({
        ...id,
        requestHash: hash,
        lockedUntil: now + LEASE_MS,
        expiresAt: ttlIn(WINDOW_SECONDS, now),
      })
        .where(
          (a, op) =>
            `${op.notExists(a.requestHash)} OR ${op.lte(a.expiresAt, Math.floor(now / 1000))} OR (${op.notExists(a.result)} AND ${op.lt(a.lockedUntil, now)})`,
        )
        .go();
      return await runClaimed(id, hash, send);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const { data: record } = await IdempotencyRecord.get(id).go({ consistent: true });
    if (!record || isExpired(record.expiresAt)) continue;
    if (record.requestHash !== hash) {
      throw problem('idempotency.mismatch', { key });
    }
    if (record.result) return { ...(JSON.parse(record.result) as SendResult), deduplicated: true };
    if (record.lockedUntil < Date.now()) continue;
    if (Date.now() > deadline) {
      throw problem('idempotency.in_progress', { key });
    }
    await sleep(POLL_MS);
  }
}

async function runClaimed(
  id: { projectId: string; env: 'live' | 'sandbox'; key: string },
  hash: string,
  send: () => Promise<SendResult>,
) {
  let result: SendResult;
  try {
    result = await send();
  } catch (err) {
    await IdempotencyRecord.delete(id)
      .where((a, op) => `${op.eq(a.requestHash, hash)} AND ${op.notExists(a.result)}`)
      .go()
      // A release that fails only delays retries until the lease runs out; the send's own error matters more.
      .catch(() => undefined);
    throw err;
  }
  await IdempotencyRecord.patch(id)
    .set({ result: JSON.stringify(result) })
    .go();
  return result;
}

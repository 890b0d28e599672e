/**
 * The log alert delay: from a POST /logs that answered to the alert it triggers being listed by
 * GET /log-alerts, through the whole local path (the relay, the grouping consumer, the alert check and
 * its consumer). Deployed, DynamoDB Streams starts the relay; here a loop relays every RELAY_EVERY_MS,
 * a stand-in for the stream's latency (typically well under a second).
 */
import { progress, type Stack } from './stack.js';

const RELAY_EVERY_MS = 200;
const POLL_EVERY_MS = 50;
const TIMEOUT_MS = 90_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export async function measureAlertDelay(stack: Stack, project: string, probes: number) {
  const call: Stack['call'] = (method, path, options = {}) => stack.call(method, path, { ...options, project });
  const made = await Promise.all(
    [
      { name: 'bench new issue', trigger: { type: 'new_issue' } },
      { name: 'bench threshold', trigger: { type: 'threshold', count: 5, windowMinutes: 1 } },
    ].map((body) => call('POST', '/log-alert-rules', { body: { ...body, actions: { webhook: true } } })),
  );
  const [newIssue, threshold] = made.map((r) => {
    if (r.status !== 200) throw new Error(`POST /log-alert-rules answered ${r.status}`);
    return r.body.id as string;
  });
  const consumers = stack.startConsumers();
  let relaying = true;
  const relayLoop = (async () => {
    while (relaying) {
      await stack.relay();
      await new Promise((r) => setTimeout(r, RELAY_EVERY_MS));
    }
  })();
  const delays: Record<'new_issue' | 'threshold', number[]> = { new_issue: [], threshold: [] };
  try {
    for (let i = 0; i < probes; i++) {
      // A scope of its own: a new issue, and five events of it cross the threshold at once.
      const scope = `bench.alert.probe${i}.${Date.now().toString(36)}`;
      const start = performance.now();
      const res = await call('POST', '/logs', {
        body: {
          events: Array.from({ length: 5 }, () => ({ level: 'error', message: 'Probe failed to answer', scope })),
        },
      });
      if (res.status !== 200) throw new Error(`POST /logs answered ${res.status}`);
      const pending = new Map([
        [newIssue, 'new_issue' as const],
        [threshold, 'threshold' as const],
      ]);
      while (pending.size && performance.now() - start < TIMEOUT_MS) {
        const listed = await call('GET', '/log-alerts', { query: { limit: 100 } });
        for (const a of listed.body.alerts as Array<{ ruleId: string; issue: { scope: string | null } }>) {
          const kind = pending.get(a.ruleId);
          if (kind && a.issue.scope === scope) {
            delays[kind].push(performance.now() - start);
            pending.delete(a.ruleId);
          }
        }
        if (pending.size) await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
      }
      if (pending.size) throw new Error(`probe ${i}: no alert within ${TIMEOUT_MS / 1000} s`);
    }
  } finally {
    relaying = false;
    await relayLoop;
    await consumers.drain(5_000);
    await stack.stopConsumers();
  }
  progress(`alerts: ${probes} probes`);
  return Object.fromEntries(
    Object.entries(delays).map(([kind, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return [kind, { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? Number.NaN }];
    }),
  ) as Record<'new_issue' | 'threshold', { p50: number; p95: number; max: number }>;
}

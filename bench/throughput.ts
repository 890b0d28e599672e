import { progress, type Call } from './stack.js';

export const CLIENTS = 20;
export const SECONDS = 10;

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);

/** CLIENTS concurrent loops of one operation for SECONDS: completed operations per second and latency. */
export async function load(name: string, op: (client: number, i: number) => Promise<boolean>): Promise<LoadResult> {
  progress(`load: ${name} (${CLIENTS} clients, ${SECONDS} s)`);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; performance.now() < end; i++) {
        const t = performance.now();
        const ok = await op(client, i).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, requests: latencies.length, errors, rps: (latencies.length - errors) / elapsed, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** An API call as a load operation: 200 counts as done. */
export const apiOp =
  (call: Call, project: string, request: (client: number, i: number) => { method: string; path: string; body?: unknown; query?: Record<string, string | number | boolean> }) =>
  async (client: number, i: number) => {
    const r = request(client, i);
    return (await call(r.method, r.path, { body: r.body, query: r.query, project })).status === 200;
  };

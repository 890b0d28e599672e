import { Worker } from 'node:worker_threads';
import type { LoadSpec } from './load-ops.js';
import { progress } from './stack.js';

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

// Workers do not inherit tsx's loader hooks: the worker registers them, then imports the TypeScript entry.
const BOOTSTRAP = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => { register(); return import(${JSON.stringify(new URL('./load-worker.ts', import.meta.url).href)}); })`;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/**
 * CLIENTS concurrent loops of one operation for SECONDS, run in a worker thread (bench/load-worker.ts)
 * so the clients do not share the event loop of the server they measure: completed operations per
 * second and latency.
 */
export async function load(name: string, spec: LoadSpec, seconds = SECONDS): Promise<LoadResult> {
  progress(`load: ${name} (${CLIENTS} clients, ${seconds} s, in a worker thread)`);
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { spec, clients: CLIENTS, seconds } });
  const { latencies, errors, elapsed } = await new Promise<{ latencies: number[]; errors: number; elapsed: number }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`load worker for ${name} exited with ${code}`)));
    },
  );
  await worker.terminate();
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    errors,
    rps: (latencies.length - errors) / elapsed,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
  };
}

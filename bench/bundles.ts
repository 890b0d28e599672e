import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import {
  BUNDLE_ENTRY_FILE,
  buildFunction,
  loadedFiles,
  SDK_FOLDER,
  sdkEntry,
  separateSdkMetafile,
} from '../infra/constructs/bundle.js';
import { FUNCTIONS_ROOT, REPO_ROOT } from '../infra/paths.js';
import { lambdaNode } from './lambda-node.js';
import { progress } from './stack.js';

/** A chunk loaded on first use: the module a route imports with `await import()` and what only it needs. */
export interface LazyChunk {
  /** The dynamically imported source module. */
  module: string;
  /** Bytes loaded on the first call beyond what init loaded. */
  kb: number;
  /** Median time of the `import()` in a process that has loaded the entry. */
  firstCallMs: number;
  top: { name: string; kb: number }[];
}

export interface BundleResult {
  name: string;
  /** Code loaded before the first request: index.mjs and the chunks it imports statically. */
  kb: number;
  /** Everything shipped (all chunks). */
  totalKb: number;
  initMs: number;
  /** The biggest contributors to the code loaded at init, by package. */
  top: { name: string; kb: number }[];
  lazy: LazyChunk[];
}

const ROUNDS = 20;
const LAZY_ROUNDS = 3;

// A Lambda's environment: region and credentials present, nothing contacted while importing.
const lambdaEnv = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING: '1',
  TABLE_NAME: 'bench',
  STAGE: 'dev',
  // A deployed stage refuses to start without its secret, as the stack sets it from Secrets Manager.
  SIGNING_SECRET: 'bench-signing-secret',
  LOG_LEVEL: 'CRITICAL',
};

// Time to import the entry, which builds its clients at module scope, in a fresh process; then, if
// asked, the time to import one lazy chunk as the route's first call would.
const CHILD = `const t = performance.now(); await import(process.env.BENCH_BUNDLE); const init = performance.now() - t;
let lazy = 0; if (process.env.BENCH_LAZY) { const l = performance.now(); await import(process.env.BENCH_LAZY); lazy = performance.now() - l; }
process.stdout.write(JSON.stringify({ init, lazy }));`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Output bytes per npm package (or per source folder of this repository), largest first. */
function contributors(outputs: Metafile['outputs'][string][]) {
  const by = new Map<string, number>();
  for (const output of outputs) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 3).join('/');
      by.set(pkg, (by.get(pkg) ?? 0) + bytesInOutput);
    }
  }
  return [...by]
    .filter(([, b]) => b > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, bytes]) => ({ name, kb: bytes / 1024 }));
}

/** The output files loaded when `file` is imported: itself and its static imports, transitively. */
const staticClosure = (metafile: Metafile, file: string) => loadedFiles(metafile, file, ['import-statement']);

const bytesOf = (metafile: Metafile, files: Iterable<string>) =>
  [...files].reduce((n, f) => n + metafile.outputs[f]!.bytes, 0);

function child(entry: string, lazy?: string) {
  const run = spawnSync(lambdaNode().node, ['--input-type=module', '-e', CHILD], {
    env: {
      ...lambdaEnv,
      BENCH_BUNDLE: pathToFileURL(entry).href,
      ...(lazy ? { BENCH_LAZY: pathToFileURL(lazy).href } : {}),
    },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`${entry} failed to initialize: ${run.stderr}`);
  return JSON.parse(run.stdout) as { init: number; lazy: number };
}

/**
 * Every Lambda entry built as deployed (infra/constructs/bundle.ts), plus the baseline: the code loaded
 * at init and its median cold init over fresh processes; each lazily loaded chunk with its size and
 * first-call cost.
 */
export function measureBundles(rounds = ROUNDS): { baseline: BundleResult; bundles: BundleResult[] } {
  const entries: Record<string, string> = { baseline: path.join(REPO_ROOT, 'bench', 'baseline.ts') };
  for (const kind of ['http', 'queue']) {
    for (const file of readdirSync(path.join(FUNCTIONS_ROOT, kind)).filter((f) => f.endsWith('.ts'))) {
      entries[`${kind}/${file.replace(/\.ts$/, '')}`] = path.join(FUNCTIONS_ROOT, kind, file);
    }
  }
  const outRoot = mkdtempSync(path.join(tmpdir(), 'helpdesk-bench-'));
  try {
    progress(`building ${Object.keys(entries).length - 1} Lambdas and the baseline`);
    const built = Object.entries(entries).map(([name, entry]) => {
      const outdir = path.join(outRoot, name);
      mkdirSync(outdir, { recursive: true });
      const { metafile, sdkModules } = buildFunction(entry, outdir);
      const rel = (f: string) => path.relative(REPO_ROOT, path.join(outdir, f));
      const main = rel(BUNDLE_ENTRY_FILE);
      const init = staticClosure(metafile, main);
      // Dynamically imported modules are esbuild entry points of their own (outputs with an entryPoint);
      // the ones our code imports are reported (the AWS SDK's own lazy imports are left out).
      const ours = new Set(
        Object.entries(metafile.inputs)
          .filter(([file]) => !file.includes('node_modules/'))
          .flatMap(([, input]) => input.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)),
      );
      const lazy = Object.entries(metafile.outputs)
        .filter(([file, o]) => file !== main && o.entryPoint && ours.has(o.entryPoint))
        .map(([file, o]) => {
          const loads = [...staticClosure(metafile, file)].filter((f) => !init.has(f));
          return {
            file,
            module: o.entryPoint!,
            kb: bytesOf(metafile, loads) / 1024,
            top: contributors(loads.map((f) => metafile.outputs[f]!)),
          };
        });
      // The AWS SDK clients built on their own (infra/constructs/bundle.ts) share no code with init.
      const sdk = separateSdkMetafile();
      for (const module of sdkModules) {
        const loads = [...staticClosure(sdk, sdkEntry(module))];
        lazy.push({
          file: path.relative(REPO_ROOT, path.join(outdir, SDK_FOLDER, module, BUNDLE_ENTRY_FILE)),
          module,
          kb: bytesOf(sdk, loads) / 1024,
          top: contributors(loads.map((f) => sdk.outputs[f]!)),
        });
      }
      return {
        name,
        file: path.join(outdir, BUNDLE_ENTRY_FILE),
        kb: bytesOf(metafile, init) / 1024,
        totalKb:
          (bytesOf(metafile, Object.keys(metafile.outputs)) +
            bytesOf(sdk, new Set(sdkModules.flatMap((m) => [...loadedFiles(sdk, sdkEntry(m))])))) /
          1024,
        top: contributors([...init].map((f) => metafile.outputs[f]!)),
        lazy,
      };
    });
    const times: Record<string, number[]> = Object.fromEntries(built.map((b) => [b.name, []]));
    for (let round = 1; round <= rounds; round++) {
      if (round === 1 || round % 5 === 0) progress(`cold init round ${round}/${rounds}`);
      // Interleaved, so a busy moment on the shared machine hits every bundle alike.
      for (const b of built) times[b.name]!.push(child(b.file).init);
    }
    const lazyRounds = Math.min(rounds, LAZY_ROUNDS);
    if (lazyRounds)
      progress(`first calls of ${built.reduce((n, b) => n + b.lazy.length, 0)} lazy chunks, ${lazyRounds} rounds`);
    const results = built.map((b) => ({
      name: b.name,
      kb: b.kb,
      totalKb: b.totalKb,
      initMs: rounds ? median(times[b.name]!) : NaN,
      top: b.top,
      lazy: b.lazy.map((l) => ({
        module: l.module,
        kb: l.kb,
        top: l.top,
        firstCallMs: lazyRounds
          ? median(Array.from({ length: lazyRounds }, () => child(b.file, path.join(REPO_ROOT, l.file)).lazy))
          : NaN,
      })),
    }));
    return {
      baseline: results.find((r) => r.name === 'baseline')!,
      bundles: results.filter((r) => r.name !== 'baseline').sort((a, b) => a.name.localeCompare(b.name)),
    };
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
}

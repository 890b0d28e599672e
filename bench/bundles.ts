import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_ALIASES, BUNDLING } from '../infra/constructs/functions.js';
import { FUNCTIONS_ROOT, REPO_ROOT } from '../infra/paths.js';
import { progress } from './stack.js';

export interface BundleResult {
  name: string;
  kb: number;
  initMs: number;
  /** The biggest contributors to the minified output, by package. */
  top: { name: string; kb: number }[];
}

const ROUNDS = 20;

/** The esbuild options NodejsFunction derives from the deploy bundling options (infra/constructs/functions.ts). */
const esbuildOptions = {
  bundle: true,
  platform: 'node' as const,
  minify: BUNDLING.minify,
  format: BUNDLING.format as 'esm',
  target: BUNDLING.target,
  sourcemap: BUNDLING.sourceMap,
  mainFields: BUNDLING.mainFields,
  banner: { js: BUNDLING.banner },
  external: BUNDLING.externalModules,
  alias: BUNDLE_ALIASES,
  treeShaking: true,
  logLevel: 'silent' as const,
};

// A Lambda's environment: region and credentials present, nothing contacted while importing.
const lambdaEnv = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING: '1',
  TABLE_NAME: 'bench',
  STAGE: 'dev',
  POWERTOOLS_LOG_LEVEL: 'CRITICAL',
};

// Time to import the bundle, which builds its clients at module scope, in a fresh process.
const CHILD = 'const t = performance.now(); await import(process.env.BENCH_BUNDLE); process.stdout.write(String(performance.now() - t));';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Output bytes per npm package (or per source folder of this repository), largest first. */
function contributors(inputs: Record<string, { bytesInOutput: number }>) {
  const by = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 3).join('/');
    by.set(pkg, (by.get(pkg) ?? 0) + bytesInOutput);
  }
  return [...by].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, bytes]) => ({ name, kb: bytes / 1024 }));
}

/** Every Lambda entry bundled as deployed, plus the baseline: size and median cold init over fresh processes. */
export async function measureBundles(rounds = ROUNDS): Promise<{ baseline: BundleResult; bundles: BundleResult[] }> {
  const entries: Record<string, string> = { baseline: path.join(REPO_ROOT, 'bench', 'baseline.ts') };
  for (const kind of ['http', 'queue']) {
    for (const file of readdirSync(path.join(FUNCTIONS_ROOT, kind)).filter((f) => f.endsWith('.ts'))) {
      entries[`${kind}/${file.replace(/\.ts$/, '')}`] = path.join(FUNCTIONS_ROOT, kind, file);
    }
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'helpdesk-bench-'));
  try {
    progress(`bundling ${Object.keys(entries).length - 1} Lambdas and the baseline`);
    const files: Record<string, string> = {};
    const tops: Record<string, BundleResult['top']> = {};
    await Promise.all(
      Object.entries(entries).map(async ([name, entry]) => {
        const outfile = path.join(outDir, name, 'index.mjs');
        const { metafile } = await build({ ...esbuildOptions, entryPoints: [entry], outfile, absWorkingDir: REPO_ROOT, metafile: true });
        files[name] = outfile;
        tops[name] = contributors(Object.values(metafile.outputs)[0]!.inputs);
      }),
    );
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(files).map((n) => [n, []]));
    for (let round = 1; round <= rounds; round++) {
      if (round === 1 || round % 5 === 0) progress(`cold init round ${round}/${rounds}`);
      // Interleaved, so a busy moment on the shared machine hits every bundle alike.
      for (const [name, file] of Object.entries(files)) {
        const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], {
          env: { ...lambdaEnv, BENCH_BUNDLE: pathToFileURL(file).href },
          encoding: 'utf8',
        });
        const ms = Number(child.stdout);
        if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`${name} failed to initialize: ${child.stderr}`);
        times[name]!.push(ms);
      }
    }
    const results = Object.entries(files).map(([name, file]) => ({
      name,
      kb: statSync(file).size / 1024,
      initMs: rounds ? median(times[name]!) : NaN,
      top: tops[name]!,
    }));
    return { baseline: results.find((r) => r.name === 'baseline')!, bundles: results.filter((r) => r.name !== 'baseline').sort((a, b) => a.name.localeCompare(b.name)) };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

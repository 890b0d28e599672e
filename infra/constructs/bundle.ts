import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { REPO_ROOT } from '../paths.js';

/** Modules replaced in every bundle by a smaller one with the same exports (see each stub for why). */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': path.join(REPO_ROOT, 'infra', 'stubs', 'credential-provider-node.ts'),
  '@aws-sdk/lib-dynamodb': path.join(REPO_ROOT, 'infra', 'stubs', 'lib-dynamodb.mjs'),
};

/** The file Lambda loads (`index.handler`); chunks sit beside it. */
export const BUNDLE_ENTRY_FILE = 'index.mjs';

/**
 * How every function is built: minified ESM for node22 with code splitting, so a module a route
 * imports with `await import()` (and the libraries only it uses) lands in its own chunk, loaded on the
 * route's first call instead of at init. The AWS SDK is bundled (no external modules) so esbuild
 * tree-shakes it. NodejsFunction cannot split (it runs esbuild with --outfile), hence our own build.
 * Exported for bench/, which builds the same bundles to measure them.
 */
export const BUILD_OPTIONS = {
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  treeShaking: true,
  sourcemap: false,
  mainFields: ['module', 'main'],
  // CommonJS dependencies call require() for Node built-ins; every output file gets its own.
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  alias: BUNDLE_ALIASES,
  entryNames: 'index',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  metafile: true,
  logLevel: 'silent',
  absWorkingDir: REPO_ROOT,
} satisfies BuildOptions;

/** Builds one function into outdir (index.mjs + chunks) and copies its assets beside it. */
export function buildFunction(entry: string, outdir: string, assets: string[] = []): Metafile {
  const { metafile } = buildSync({ ...BUILD_OPTIONS, entryPoints: [entry], outdir });
  for (const file of assets) copyFileSync(file, path.join(outdir, path.basename(file)));
  return metafile;
}

let scratch: string | undefined;

/** A fresh folder for one function's build; the asset staging copies it into the cloud assembly, so all go at exit. */
export function buildFolder(name: string): string {
  if (!scratch) {
    scratch = mkdtempSync(path.join(tmpdir(), 'helpdesk-functions-'));
    const dir = scratch;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  const dir = mkdtempSync(path.join(scratch, `${name.replace(/[^a-zA-Z0-9-]/g, '-')}-`));
  mkdirSync(dir, { recursive: true });
  return dir;
}

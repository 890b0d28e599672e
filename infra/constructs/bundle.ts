import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { REPO_ROOT } from '../paths.js';

/** Modules replaced in every bundle by a smaller one with the same exports (see each stub for why). */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': path.join(REPO_ROOT, 'infra', 'stubs', 'credential-provider-node.ts'),
  '@aws-sdk/client-dynamodb': path.join(REPO_ROOT, 'infra', 'stubs', 'client-dynamodb.mjs'),
  '@aws-sdk/lib-dynamodb': path.join(REPO_ROOT, 'infra', 'stubs', 'lib-dynamodb.mjs'),
  '@aws-sdk/middleware-endpoint-discovery': path.join(REPO_ROOT, 'infra', 'stubs', 'middleware-endpoint-discovery.mjs'),
  jsonschema: path.join(REPO_ROOT, 'infra', 'stubs', 'jsonschema.mjs'),
  'source-map': path.join(REPO_ROOT, 'infra', 'stubs', 'source-map.mjs'),
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
  banner: { js: "import{createRequire}from'module';const require=createRequire(import.meta.url);" },
  alias: BUNDLE_ALIASES,
  entryNames: 'index',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  metafile: true,
  logLevel: 'silent',
  absWorkingDir: REPO_ROOT,
} satisfies BuildOptions;

/**
 * AWS SDK clients our code loads only with `await import()`, on the first call that needs them.
 * Bundled in the function's own build they still cost init: they are made of the same @smithy and
 * @aws-sdk core files as the DynamoDB client, and esbuild places the parts of a file reached from
 * both the entry and a lazy chunk in a chunk the entry loads (S3 +46 KB at init, Bedrock +28, SES
 * +21, Scheduler +19). So they are one build of their own (chunks shared among them, never with a
 * function) copied into the function's `node_modules/`, where Node resolves the import as written;
 * each function gets the ones it imports. The price: the first of them an instance loads brings its
 * own copy of the SDK core (~120 KB, ~12 ms once). SQS stays in the function's build: it adds 4 KB at
 * init there, and most write routes send to a queue, so they would all pay that first load.
 * Importing one of these statically fails the build: it would load at init.
 */
export const SEPARATE_SDK_MODULES = [
  '@aws-sdk/client-bedrock-runtime',
  '@aws-sdk/client-s3',
  '@aws-sdk/client-scheduler',
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/client-sesv2',
  '@aws-sdk/s3-request-presigner',
];

/** Where a function's copy of the separately built SDK modules sits, beside index.mjs. */
export const SDK_FOLDER = 'node_modules';

let sdkBuild: { dir: string; metafile: Metafile } | undefined;

/** The separately built SDK modules, once per process: `<dir>/<module>/index.mjs` and shared `.chunks/`. */
function separateSdk() {
  if (sdkBuild) return sdkBuild;
  const dir = path.join(scratchFolder(), 'sdk');
  const sources = path.join(scratchFolder(), 'sdk-entries');
  mkdirSync(sources, { recursive: true });
  const entryPoints = SEPARATE_SDK_MODULES.map((module) => {
    const file = path.join(sources, `${module.replace(/[@/]/g, '_')}.mjs`);
    writeFileSync(file, `export * from '${module}';\n`);
    return { in: file, out: `${module}/index` };
  });
  const { metafile } = buildSync({
    ...BUILD_OPTIONS,
    entryPoints,
    outdir: dir,
    entryNames: '[dir]/[name]',
    chunkNames: '.chunks/[hash]',
    nodePaths: [path.join(REPO_ROOT, 'node_modules')],
  });
  for (const module of SEPARATE_SDK_MODULES)
    writeFileSync(
      path.join(dir, module, 'package.json'),
      JSON.stringify({ name: module, type: 'module', main: 'index.mjs' }),
    );
  sdkBuild = { dir, metafile };
  return sdkBuild;
}

/** The output files `file` loads, statically or on first use, transitively (paths as the metafile keys them). */
export function loadedFiles(
  metafile: Metafile,
  file: string,
  kinds: string[] = ['import-statement', 'dynamic-import'],
  seen = new Set<string>(),
): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imp of metafile.outputs[file]?.imports ?? [])
    if (kinds.includes(imp.kind) && !imp.external) loadedFiles(metafile, imp.path, kinds, seen);
  return seen;
}

/** The separately built SDK modules a function's build imports (always with `await import()`). */
export function sdkModulesImported(metafile: Metafile): string[] {
  const imports = Object.values(metafile.outputs).flatMap((o) =>
    o.imports.filter((i) => i.external && SEPARATE_SDK_MODULES.includes(i.path)),
  );
  const statically = imports.find((i) => i.kind !== 'dynamic-import');
  if (statically)
    throw new Error(
      `${statically.path} is imported statically; load it with await import() (see SEPARATE_SDK_MODULES)`,
    );
  return [...new Set(imports.map((i) => i.path))].sort();
}

/** Where a separately built SDK module's entry sits in the shared build (a key of its metafile's outputs). */
export const sdkEntry = (module: string) =>
  path.relative(REPO_ROOT, path.join(separateSdk().dir, module, BUNDLE_ENTRY_FILE));

/**
 * Builds one function into outdir (index.mjs + chunks), copies the separately built SDK modules it
 * imports into its node_modules/ and its assets beside it. Returns the function's metafile and the
 * SDK modules it ships.
 */
export function buildFunction(
  entry: string,
  outdir: string,
  assets: string[] = [],
): { metafile: Metafile; sdkModules: string[] } {
  const { metafile } = buildSync({ ...BUILD_OPTIONS, external: SEPARATE_SDK_MODULES, entryPoints: [entry], outdir });
  const sdkModules = sdkModulesImported(metafile);
  if (sdkModules.length) {
    const sdk = separateSdk();
    for (const module of sdkModules) {
      cpSync(path.join(sdk.dir, module, 'package.json'), path.join(outdir, SDK_FOLDER, module, 'package.json'));
      for (const file of loadedFiles(sdk.metafile, sdkEntry(module))) {
        cpSync(
          path.join(REPO_ROOT, file),
          path.join(outdir, SDK_FOLDER, path.relative(path.relative(REPO_ROOT, sdk.dir), file)),
        );
      }
    }
  }
  for (const file of assets) copyFileSync(file, path.join(outdir, path.basename(file)));
  return { metafile, sdkModules };
}

/** The separately built SDK's metafile (bench/ measures each module's first load from it). */
export const separateSdkMetafile = () => separateSdk().metafile;

let scratch: string | undefined;

/** This process's build folder; the asset staging copies what it needs into the cloud assembly, so all go at exit. */
function scratchFolder(): string {
  if (!scratch) {
    scratch = mkdtempSync(path.join(tmpdir(), 'helpdesk-functions-'));
    const dir = scratch;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}

/** A fresh folder for one function's build. */
export function buildFolder(name: string): string {
  return mkdtempSync(path.join(scratchFolder(), `${name.replace(/[^a-zA-Z0-9-]/g, '-')}-`));
}

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { LAMBDA_RUNTIME } from '../infra/constructs/functions.js';
import { progress } from './stack.js';

/** The Node.js the deployed functions run on, for the processes that measure their bundles. */
export interface LambdaNode {
  /** The executable. */
  node: string;
  /** Its `process.version`. */
  version: string;
  /** Whether its major version is the deployed runtime's (false: this process's Node stood in). */
  matchesRuntime: boolean;
}

/** The deployed runtime's major version, from the stack's own setting (`nodejs24.x` -> 24). */
export const runtimeMajor = () => Number(/^nodejs(\d+)\.x$/.exec(LAMBDA_RUNTIME.name)?.[1]);

const versionOf = (node: string) =>
  spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim() || process.version;

let resolved: LambdaNode | undefined;

/**
 * Cold init and the first call differ by Node major version (Node 24's AsyncLocalStorage runs without
 * the promise hooks that cost Node 20 tens of ms on a first call), so the bench times bundles on the
 * deployed runtime's major: `BENCH_LAMBDA_NODE` if set, else the official build from the npm registry's
 * `node-linux-<arch>` package, fetched once into ~/.cache/helpdesk-bench (nodejs.org itself may be out
 * of reach where the npm registry is not). Without either, this process's Node stands in and the report
 * says so.
 */
export function lambdaNode(): LambdaNode {
  if (resolved) return resolved;
  const major = runtimeMajor();
  const given = process.env.BENCH_LAMBDA_NODE;
  const candidate = given || fetchNode(major);
  const node = candidate ?? process.execPath;
  const version = versionOf(node);
  resolved = { node, version, matchesRuntime: version.startsWith(`v${major}.`) };
  if (!resolved.matchesRuntime)
    progress(`bundles run on Node ${version}, not the deployed runtime's Node ${major} (see bench/lambda-node.ts)`);
  return resolved;
}

function fetchNode(major: number): string | undefined {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return undefined;
  const dir = path.join(homedir(), '.cache', 'helpdesk-bench', `node${major}-${process.arch}`);
  const binary = path.join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  progress(`fetching Node ${major} (node-linux-${process.arch} from the npm registry) into ${dir}`);
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync('npm', ['pack', '--silent', `node-linux-${process.arch}@${major}`], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
  });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (pack.status !== 0 || !tarball) return undefined;
  const untar = spawnSync('tar', ['xzf', tarball], { cwd: dir });
  return untar.status === 0 && existsSync(binary) ? binary : undefined;
}

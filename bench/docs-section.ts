import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../infra/paths.js';

/**
 * Replaces a benchmark's own section of docs/benchmarks.md (between `<!-- bench:<name>:start -->` and
 * its end marker), or appends it under `heading` the first time; the text around it is left alone.
 */
export function writeBenchSection(name: string, heading: string, content: string) {
  const file = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const section = `${start}\n${content}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  writeFileSync(
    file,
    current.includes(start)
      ? current.replace(new RegExp(`${start}[\\s\\S]*${end}`), section)
      : `${current.trimEnd()}\n\n## ${heading}\n\n${section}\n`,
  );
  return path.relative(REPO_ROOT, file);
}

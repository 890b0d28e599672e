import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILT_PATTERNS } from '@helpdesk/core/areas/logs/tokens';
import { routePattern } from '@helpdesk/core/top/pipeline/match';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { parse } from 'acorn';
import { simple } from 'acorn-walk';
import { transformSync } from 'esbuild';
import { check } from 'recheck';
import { describe, expect, it } from 'vitest';

/**
 * No regular expression of the service may take more than linear time on any input (a long run that
 * a pattern retries from every position stalls a Lambda, and the local server for everyone). recheck
 * (a ReDoS checker: static analysis, then fuzzing) judges every regular expression literal in core and
 * the functions, and every pattern core builds from strings at run time (the files that do so export
 * them, and are listed here).
 */
const ROOTS = ['packages/core/src', 'functions'];
const BUILT: Record<string, () => RegExp[]> = {
  'packages/core/src/areas/logs/tokens.ts': () => BUILT_PATTERNS,
  'packages/core/src/top/pipeline/match.ts': () => allRoutes.map(routePattern),
};

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );

type Found = { where: string; source: string; flags: string };

function patternsIn(file: string): { literals: Found[]; built: boolean } {
  const { code } = transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm' });
  const literals: Found[] = [];
  let built = false;
  simple(parse(code, { ecmaVersion: 'latest', sourceType: 'module' }), {
    Literal(node) {
      const regex = (node as { regex?: { pattern: string; flags: string } }).regex;
      if (regex) literals.push({ where: file, source: regex.pattern, flags: regex.flags });
    },
    NewExpression(node) {
      if (node.callee.type === 'Identifier' && node.callee.name === 'RegExp') built = true;
    },
  });
  return { literals, built };
}

const verdict = async ({ source, flags }: Found) => {
  const result = await check(source, flags, { timeout: 10_000 });
  return result.status === 'vulnerable'
    ? `${result.complexity.type}: ${JSON.stringify(result.attack.pattern)}`
    : result.status;
};

/** The verdicts of the distinct patterns, side by side; the unsafe ones named with where they are. */
const unsafeOf = async (found: Found[]) => {
  const distinct = [...new Map(found.map((f) => [`/${f.source}/${f.flags}`, f])).values()];
  const verdicts = await Promise.all(distinct.map(async (f) => ({ f, status: await verdict(f) })));
  return verdicts
    .filter(({ status }) => status !== 'safe')
    .map(({ f, status }) => `${f.where}: /${f.source}/${f.flags} ${status}`);
};

describe('regular expressions', () => {
  const scanned = ROOTS.flatMap(files).map((file) => ({ file, ...patternsIn(file) }));

  it('finds the literals and the files that build patterns', () => {
    expect(scanned.flatMap((f) => f.literals).length).toBeGreaterThan(100);
    // A new file that builds patterns at run time must export them and be listed in BUILT.
    expect(scanned.filter((f) => f.built).map((f) => f.file)).toEqual(Object.keys(BUILT).sort());
  });

  it('are all linear: every literal', { timeout: 300_000 }, async () => {
    expect(await unsafeOf(scanned.flatMap((f) => f.literals))).toEqual([]);
  });

  it('are all linear: every pattern built at run time', { timeout: 300_000 }, async () => {
    const built = Object.entries(BUILT).flatMap(([where, load]) =>
      load().map((regex) => ({ where, source: regex.source, flags: regex.flags })),
    );
    expect(built.length).toBeGreaterThan(40);
    expect(await unsafeOf(built)).toEqual([]);
  });

  it('tells a quadratic pattern from a linear one (the check itself works)', async () => {
    expect(await verdict({ where: 'x', source: '-+$', flags: '' })).toMatch(/^polynomial/);
    expect(await verdict({ where: 'x', source: '^(a+)+$', flags: '' })).toMatch(/^exponential/);
    expect(await verdict({ where: 'x', source: '^-?\\d+$', flags: '' })).toBe('safe');
  });
});

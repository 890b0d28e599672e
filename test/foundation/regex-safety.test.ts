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
/** Every regex action inside the route table's schemas (query lists build theirs from strings). */
function schemaPatterns(schema: unknown, found: RegExp[] = [], seen = new Set<unknown>()): RegExp[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return found;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  if (s.type === 'regex' && s.requirement instanceof RegExp) found.push(s.requirement);
  for (const child of [
    ...Object.values((s.entries as object) ?? {}),
    ...((s.pipe as unknown[]) ?? []),
    ...((s.options as unknown[]) ?? []),
    s.wrapped,
    s.item,
    s.value,
  ])
    schemaPatterns(child, found, seen);
  return found;
}

const BUILT: Record<string, () => RegExp[]> = {
  'packages/core/src/kernel/api/schemas.ts': () =>
    allRoutes.flatMap((r) =>
      [...Object.values(r.query ?? {}), ...Object.values(r.params ?? {}), r.body].flatMap((s) => schemaPatterns(s)),
    ),
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

/**
 * Milliseconds of CPU V8 takes to scan `text` with the pattern, everywhere (the best of five runs).
 * CPU time, not wall time: on a machine running the whole suite, a short run preempted by other
 * workers once read as slow as the long one and a quadratic pattern passed for linear.
 */
function scanTime(source: string, flags: string, text: string) {
  const regex = new RegExp(source, flags.includes('g') ? flags : `${flags}g`);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const start = process.cpuUsage();
    text.replace(regex, '');
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/**
 * recheck finds candidates (automata analysis, then fuzzing with its own matcher); a candidate counts
 * only if V8, which runs the service, really slows down on the attack: four times the pumped input
 * taking over eight times as long (linear: four). recheck's matcher misses V8's optimizations for
 * anchors and lookbehinds, so a verdict alone would fail a linear pattern now and then.
 */
const verdict = async ({ source, flags }: Found) => {
  // recheck's budget is wall-clock time: a pattern whose automaton is large (case-insensitive, multiline
  // classes) can run out of it, alone in ~10 s and far sooner on a loaded machine (status `unknown`).
  // It is then fuzzed, as recheck's own `auto` mode does with patterns too large for the automaton
  // (fuzzing judges such a pattern in well under a second, where a larger automaton budget took a minute
  // under the suite's load), and V8's timing below still decides.
  let result = await check(source, flags, { timeout: 10_000, randomSeed: 42 });
  if (result.status === 'unknown')
    result = await check(source, flags, { checker: 'fuzz', timeout: 60_000, randomSeed: 42 });
  if (result.status !== 'vulnerable') return result.status;
  // Exponential: no need (and no time) to measure it.
  if (result.complexity.type === 'exponential') return `exponential: ${JSON.stringify(result.attack.pattern)}`;
  const { pumps, suffix } = result.attack;
  // Pumped to about 2,000 and 8,000 characters: a quadratic pattern takes tens of ms there, not hours.
  const unit = Math.max(
    1,
    pumps.reduce((n, p) => n + p.pump.length, 0),
  );
  const attack = (chars: number) =>
    pumps.map((p) => p.prefix + p.pump.repeat(Math.ceil(chars / unit))).join('') + suffix;
  const [small, large] = [scanTime(source, flags, attack(2_000)), scanTime(source, flags, attack(8_000))];
  return large > 5 && large > 8 * small
    ? `${result.complexity.type}: ${JSON.stringify(result.attack.pattern)} (V8: ${small.toFixed(1)} ms, then ${large.toFixed(1)} ms)`
    : 'safe';
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

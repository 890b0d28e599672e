import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The layers of packages/core (docs/architecture.md, Layers) are its top folders, bottom to top:
 * kernel -> identity -> areas -> top. A file's folder tells its layer; imports go down or sideways,
 * never up, and the folders of a layer (an area, a kernel part) never import each other in a circle.
 * The graph holds every import: static and dynamic ones from esbuild (which builds every Lambda),
 * and type-only ones, which esbuild drops, read from the import statements themselves.
 */
const CORE = 'packages/core/src/';
const LAYERS = ['kernel', 'identity', 'areas', 'top'] as const;
const layerOf = (file: string) => {
  const index = LAYERS.indexOf(file.split('/')[0] as (typeof LAYERS)[number]);
  return index < 0 ? undefined : index;
};
/** The unit whose imports must not run in a circle: an area or top folder, a kernel folder or file. */
const unitOf = (file: string) => {
  const parts = file.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0] === 'identity' ? 'identity' : file;
};

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );

/** Static import and export-from statements, type-only ones included (they start a line). */
const STATEMENT = /^(?:import|export)\s[^;]*?\bfrom\s+'([^']+)';/gm;
const staticImports = (source: string) => [...source.matchAll(STATEMENT)].map((m) => m[1] as string);

async function importGraph() {
  const entryPoints = files(CORE);
  const { metafile } = await build({
    entryPoints,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: 'out',
    splitting: true,
    logLevel: 'silent',
  });
  const edges = new Set<string>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) if (!imported.external) edges.add(`${file}\n${imported.path}`);
  }
  for (const file of entryPoints) {
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.'))
        edges.add(`${file}\n${path.join(path.dirname(file), specifier).replace(/\.js$/, '.ts')}`);
      else if (specifier.startsWith('@helpdesk/')) edges.add(`${file}\n${specifier}`);
    }
  }
  return [...edges].map((edge) => edge.split('\n') as [string, string]);
}

/** Cycles of a directed graph, one trail each (a depth-first walk). */
function cyclesOf(edges: [string, string][]) {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) if (from !== to) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (node: string, trail: string[]) => {
    state.set(node, 'open');
    for (const to of next.get(node) ?? []) {
      if (state.get(to) === 'open') cycles.push([...trail.slice(trail.indexOf(to)), node, to].join(' -> '));
      else if (!state.has(to)) visit(to, [...trail, node]);
    }
    state.set(node, 'done');
  };
  for (const node of next.keys()) if (!state.has(node)) visit(node, []);
  return cycles;
}

/** What moves a message to a queue or a schedule directly; core's use cases write outbox items instead. */
const DIRECT_SENDS = ['enqueue', 'sendEntries', 'scheduleStored', 'relayOutbox'];
/** The files that may: the relay and its deployed handler. */
const RELAY_FILES = ['kernel/ports/relay.ts', 'top/queues/outbox-stream.ts'];
/** The names a file's import statements bring in from a module (type-only ones included). */
const importedNames = (source: string) =>
  [...source.matchAll(STATEMENT)].flatMap((m) =>
    (m[0].match(/\{([^}]*)\}/)?.[1] ?? '').split(',').map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
    ),
  );

describe('layers of packages/core', () => {
  it('send nothing to a queue outside the outbox: only the relay imports a direct send', () => {
    const offenders = files(CORE).flatMap((file) => {
      const relative = file.slice(CORE.length);
      if (RELAY_FILES.includes(relative)) return [];
      const names = importedNames(readFileSync(file, 'utf8')).filter((n) => DIRECT_SENDS.includes(n as string));
      return names.map((n) => `${relative} imports ${n}`);
    });
    expect(offenders, 'use cases commit outbox items (kernel/ports/outbox.ts)').toEqual([]);
    // The check sees a named import among others, renamed or not.
    expect(importedNames("import { a, enqueue as send, type B } from './queue.js';")).toEqual(['a', 'enqueue', 'B']);
  });

  it('import only down or sideways (kernel -> identity -> areas -> top), never outside core, without cycles', async () => {
    const edges = await importGraph();
    expect(edges.length).toBeGreaterThan(800);
    const upward: string[] = [];
    const outside: string[] = [];
    const inside: [string, string][] = [];
    for (const [from, to] of edges) {
      if (!from.startsWith(CORE)) continue;
      if (!to.startsWith(CORE)) {
        outside.push(`${from} -> ${to}`);
        continue;
      }
      const [a, b] = [from.slice(CORE.length), to.slice(CORE.length)];
      const [la, lb] = [layerOf(a), layerOf(b)];
      if (la === undefined || lb === undefined)
        throw new Error(`${la === undefined ? a : b} is in no layer: core's top folders are ${LAYERS.join(', ')}`);
      if (lb > la) upward.push(`${a} -> ${b}`);
      inside.push([a, b]);
    }
    expect(outside, 'core imports code outside packages/core').toEqual([]);
    expect(upward, 'imports that go up a layer').toEqual([]);
    expect(cyclesOf(inside), 'import cycles between files').toEqual([]);
    expect(cyclesOf(inside.map(([a, b]) => [unitOf(a), unitOf(b)])), 'import cycles between folders').toEqual([]);
  });

  it('tells layers and units by folder, reads type-only imports, and finds cycles (the check itself works)', () => {
    expect(layerOf('areas/tickets/tags.ts')).toBe(2);
    expect(layerOf('top/pipeline/pipeline.ts')).toBe(3);
    expect(layerOf('kernel/api/schemas.ts')).toBe(0);
    expect(layerOf('identity/keys.ts')).toBe(1);
    expect(layerOf('tickets/tags.ts')).toBeUndefined();
    expect(unitOf('areas/tickets/tags.ts')).toBe('areas/tickets');
    expect(unitOf('kernel/config.ts')).toBe('kernel/config.ts');
    expect(unitOf('identity/keys.ts')).toBe('identity');
    const source = [
      "import type { A } from './a.js';",
      'import {',
      '  type B,',
      '  c,',
      "} from '../b.js';",
      "export type { D } from './d.js';",
      " * import { E } from './comment.js';",
    ].join('\n');
    expect(staticImports(source)).toEqual(['./a.js', '../b.js', './d.js']);
    expect(
      cyclesOf([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ]),
    ).toEqual(['a -> b -> c -> a']);
    expect(cyclesOf([['a', 'b']])).toEqual([]);
  });
});

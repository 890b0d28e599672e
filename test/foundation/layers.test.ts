import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The layers of packages/core (docs/architecture.md, Layers): imports go one way, kernel -> identity
 * -> areas -> top. esbuild (which builds every Lambda) reads the import graph, static and dynamic
 * imports alike; type-only imports vanish at build time and are not checked.
 */
const CORE = 'packages/core/src/';
const LAYERS: [name: string, test: RegExp][] = [
  ['top', /^(routes\.ts|http\/(pipeline|tenancy)\.ts|http\/middleware\/|openapi\/|console\/|queues\/)/],
  ['kernel', /^((config|logger)\.ts|(errors|db|ports|mail|links)\/|http\/)/],
  ['identity', /^auth\//],
  ['area', /^(tickets|emails|templates|articles|logs|customers|feedback|webhooks|conversations|account)\//],
];
const RANK: Record<string, number> = { kernel: 0, identity: 1, area: 2, top: 3 };
const layerOf = (file: string) => LAYERS.find(([, test]) => test.test(file))?.[0];

/**
 * Within the areas, customers are split in two: the directory (records, match-or-create, the
 * customer API's own writes), which tickets and feedback build on, and the profile (history, detail,
 * delete and the routes serving them), which reads and removes their copies. The directory may not
 * import tickets or feedback, and they may not import the profile.
 */
const CUSTOMER_PROFILE = /^customers\/(delete|detail|history|routes)\.ts$/;
const USES_DIRECTORY = /^(tickets|feedback)\//;
const acrossCustomers = (from: string, to: string) =>
  (USES_DIRECTORY.test(from) && CUSTOMER_PROFILE.test(to)) || (from.startsWith('customers/') && !CUSTOMER_PROFILE.test(from) && USES_DIRECTORY.test(to));

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );

async function importGraph() {
  const { metafile } = await build({
    entryPoints: files(CORE),
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
  const edges: [from: string, to: string][] = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) if (!imported.external) edges.push([file, imported.path]);
  }
  return edges;
}

describe('layers of packages/core', () => {
  it('import only downward (kernel -> identity -> areas -> top), never outside core, and without cycles', async () => {
    const edges = await importGraph();
    expect(edges.length).toBeGreaterThan(500);
    const upward: string[] = [];
    const outside: string[] = [];
    for (const [from, to] of edges) {
      if (!from.startsWith(CORE)) continue;
      if (!to.startsWith(CORE)) {
        outside.push(`${from} -> ${to}`);
        continue;
      }
      const [a, b] = [from.slice(CORE.length), to.slice(CORE.length)];
      const [la, lb] = [layerOf(a), layerOf(b)];
      if (!la || !lb) throw new Error(`No layer for ${la ? b : a}: add its folder to LAYERS`);
      if (RANK[lb]! > RANK[la]!) upward.push(`${a} (${la}) -> ${b} (${lb})`);
      if (acrossCustomers(a, b)) upward.push(`${a} -> ${b} (customer directory and profile)`);
    }
    expect(outside, 'core imports code outside packages/core').toEqual([]);
    expect(upward, 'imports that go up a layer').toEqual([]);

    // Cycles between modules (a depth-first walk over the graph).
    const next = new Map<string, string[]>();
    for (const [from, to] of edges) if (from.startsWith(CORE) && to.startsWith(CORE)) next.set(from, [...(next.get(from) ?? []), to]);
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (node: string, trail: string[]) => {
      state.set(node, 'open');
      for (const to of next.get(node) ?? []) {
        if (state.get(to) === 'open') cycles.push([...trail.slice(trail.indexOf(to)), node, to].map((f) => f.slice(CORE.length)).join(' -> '));
        else if (!state.has(to)) visit(to, [...trail, node]);
      }
      state.set(node, 'done');
    };
    for (const node of next.keys()) if (!state.has(node)) visit(node, []);
    expect(cycles, 'import cycles').toEqual([]);
  });

  it('catches an upward import (the check itself works)', () => {
    expect(layerOf('tickets/tags.ts')).toBe('area');
    expect(layerOf('http/pipeline.ts')).toBe('top');
    expect(layerOf('http/schemas.ts')).toBe('kernel');
    expect(layerOf('auth/keys.ts')).toBe('identity');
    expect(RANK.top! > RANK.area!).toBe(true);
    expect(acrossCustomers('tickets/create.ts', 'customers/history.ts')).toBe(true);
    expect(acrossCustomers('customers/match.ts', 'feedback/entities.ts')).toBe(true);
    expect(acrossCustomers('customers/detail.ts', 'tickets/customer-tickets.ts')).toBe(false);
    expect(acrossCustomers('tickets/create.ts', 'customers/match.ts')).toBe(false);
  });
});

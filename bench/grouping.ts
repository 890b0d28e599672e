/**
 * `npm run bench:grouping [-- --data DIR]`: log grouping accuracy on Loghub-style CSVs (default the
 * Loghub-2k sample), measured through the deployed path. On a fresh local stack, each `*.csv` gets a
 * fresh project whose lines go in file order through POST /logs (message = Content, level from a
 * Level column when there is one, increasing timestamps), the queue pollers run the grouping consumer,
 * and each event's issue is read back through the API (GET /logs, then GET /log-issues/{id}, following
 * `mergedInto`). Prints GA and FGA (bench/loghub.ts) per file with averages, and writes the table to
 * docs/benchmarks.md between its own markers.
 */
import path from 'node:path';
import { REPO_ROOT } from '../infra/paths.js';
import { writeBenchSection } from './docs-section.js';
import { groupingScores, levelOf, readLogFiles } from './loghub.js';
import { type Call, createFixtures, progress, startStack } from './stack.js';

const arg = process.argv.indexOf('--data');
const dir = path.resolve(
  REPO_ROOT,
  arg >= 0 && process.argv[arg + 1] ? process.argv[arg + 1]! : '../shared/datasets/loghub-2k',
);
const files = readLogFiles(dir);
if (!files.length) throw new Error(`No *.csv in ${dir}`);

const BATCH = 100;
const PAGE = 100;

function expectOk(res: Awaited<ReturnType<Call>>, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

const began = Date.now();
progress('starting the local stack');
const stack = await startStack();
const results: {
  system: string;
  ga: number;
  fga: number;
  issues: number;
  groups: number;
  seconds: number;
  events: number;
}[] = [];
try {
  const slugs = files.map((f, i) => `g${i}-${f.system.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`.slice(0, 40));
  const fixtures = await createFixtures(slugs);
  stack.useKey(fixtures.key);
  stack.startConsumers();
  for (const [i, { system, lines }] of files.entries()) {
    const project = fixtures.projects[slugs[i]!]!;
    progress(`${system}: ${lines.length} events`);
    const start = performance.now();
    const base = Date.now() - lines.length * 10 - 60_000;
    for (let at = 0; at < lines.length; at += BATCH) {
      const events = lines.slice(at, at + BATCH).map((line, j) => ({
        level: levelOf(line),
        message: line.content.slice(0, 10_000) || ' ',
        timestamp: new Date(base + (at + j) * 10).toISOString(),
      }));
      await expectOk(await stack.call('POST', '/logs', { project, body: { events } }), `${system} POST /logs`);
    }
    while ((await stack.waiting('logs')) > 0) await new Promise((r) => setTimeout(r, 200));
    const seconds = (performance.now() - start) / 1000;

    // Every event with its issue, oldest first (timestamps follow the file's order).
    const rows: { timestamp: string; issueId: string }[] = [];
    for (let page = 1; ; page++) {
      const body = await expectOk(
        await stack.call('GET', '/logs', { project, query: { page, limit: PAGE } }),
        `${system} GET /logs`,
      );
      rows.push(...body.logs);
      if (rows.length >= body.total || !body.logs.length) break;
    }
    rows.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    if (rows.length !== lines.length)
      throw new Error(`${system}: ${rows.length} events read back for ${lines.length} lines`);
    const live = new Map<string, string>();
    for (const id of new Set(rows.map((r) => r.issueId))) {
      const issue = await expectOk(
        await stack.call('GET', `/log-issues/${id}`, { project }),
        `${system} GET /log-issues/${id}`,
      );
      live.set(id, issue.mergedInto ?? issue.id);
    }
    const scores = groupingScores(
      lines.map((l) => l.truth),
      rows.map((r) => live.get(r.issueId)!),
    );
    results.push({ system, ...scores, seconds, events: lines.length });
    progress(
      `${system}: GA ${scores.ga.toFixed(3)}, FGA ${scores.fga.toFixed(3)}, ${scores.issues} issues for ${scores.groups} groups`,
    );
  }
} finally {
  await stack.stop();
}

const f3 = (x: number) => x.toFixed(3);
const mean = (pick: (r: (typeof results)[number]) => number) =>
  results.reduce((s, r) => s + pick(r), 0) / results.length;
const table = [
  '| System | GA | FGA | Issues | True groups | Events/s (ingest + grouping) |',
  '|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.system} | ${f3(r.ga)} | ${f3(r.fga)} | ${r.issues} | ${r.groups} | ${(r.events / r.seconds).toFixed(0)} |`,
  ),
  `| **average** | **${f3(mean((r) => r.ga))}** | **${f3(mean((r) => r.fga))}** | ${mean((r) => r.issues).toFixed(1)} | ${mean((r) => r.groups).toFixed(1)} | |`,
].join('\n');
const header = `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in ${((Date.now() - began) / 1000).toFixed(0)} s on ${path.relative(REPO_ROOT, dir) || dir} (${results.length} files). Targets: average GA >= 0.92, average FGA >= 0.85.`;
console.log(`${header}\n\n${table}`);

progress(`wrote ${writeBenchSection('grouping', 'Log grouping (npm run bench:grouping)', `${header}\n\n${table}`)}`);
process.exit(0);

/**
 * `npm run bench:grouping [-- --data DIR ...] [-- --in-order]`: log grouping accuracy on Loghub-style CSVs,
 * measured through the deployed path. Default data: the 8 Loghub-2k systems of ../shared/datasets and,
 * when present, the other 8 in HELD_OUT (their corrected CSVs copied there from logpai/logparser's
 * `data/loghub_2k_corrected/<System>/<System>_2k.log_structured_corrected.csv`, as `<System>.csv`: this
 * machine has no network, so the bench does not download them). On a fresh local stack, each file gets
 * a fresh project whose lines go through POST /logs (message = Content, level from a Level column when
 * there is one, timestamps in file order), the queue pollers run the grouping consumer, and each
 * event's issue is read back through the API (GET /logs, then GET /log-issues/{id}, following
 * `mergedInto`). Each file is sent twice, to two projects: in file order, and shuffled (the same events,
 * timestamps unchanged, delivered in a seeded random order) to show that learning does not depend on
 * delivery order; `--in-order` skips the shuffled pass. Prints GA and FGA (bench/loghub.ts) per file
 * with averages, and writes the table to docs/benchmarks.md between its own markers.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../infra/paths.js';
import { writeBenchSection } from './docs-section.js';
import { groupingScores, type LogLine, levelOf, permutation, readLogFiles } from './loghub.js';
import { type Call, createFixtures, progress, startStack } from './stack.js';

const HELD_OUT = path.join(os.homedir(), '.cache', 'helpdesk-bench', 'loghub-2k-held-out');
const given = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--data' ? [path.resolve(REPO_ROOT, a)] : []));
const dirs = given.length
  ? given
  : [path.resolve(REPO_ROOT, '../shared/datasets/loghub-2k'), ...(existsSync(HELD_OUT) ? [HELD_OUT] : [])];
const files = dirs.flatMap((dir) => readLogFiles(dir).map((f) => ({ ...f, dir })));
if (!files.length) throw new Error(`No *.csv in ${dirs.join(', ')}`);
const shuffled = !process.argv.includes('--in-order');
const SEED = 7;

const BATCH = 100;
const PAGE = 100;

function expectOk(res: Awaited<ReturnType<Call>>, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

const began = Date.now();
progress('starting the local stack');
const stack = await startStack();
interface Score {
  ga: number;
  fga: number;
  issues: number;
  groups: number;
  seconds: number;
}
const results: { system: string; dir: string; events: number; inOrder: Score; shuffled?: Score }[] = [];

/** Sends a file's lines to a project in `order` (timestamps always in file order) and scores the issues read back. */
async function score(system: string, lines: LogLine[], project: string, order: number[]): Promise<Score> {
  const start = performance.now();
  const base = Date.now() - lines.length * 10 - 60_000;
  for (let at = 0; at < order.length; at += BATCH) {
    const events = order.slice(at, at + BATCH).map((i) => ({
      level: levelOf(lines[i]!),
      message: lines[i]!.content.slice(0, 10_000) || ' ',
      timestamp: new Date(base + i * 10).toISOString(),
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
  return { ...scores, seconds };
}

try {
  const slugs = files.flatMap((f, i) =>
    ['o', 's'].map((pass) => `g${i}${pass}-${f.system.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`.slice(0, 40)),
  );
  const fixtures = await createFixtures(slugs);
  stack.useKey(fixtures.key);
  stack.startConsumers();
  for (const [i, { system, lines, dir }] of files.entries()) {
    progress(`${system}: ${lines.length} events`);
    const inOrder = await score(system, lines, fixtures.projects[slugs[2 * i]!]!, [...lines.keys()]);
    progress(
      `${system}: GA ${inOrder.ga.toFixed(3)}, FGA ${inOrder.fga.toFixed(3)}, ${inOrder.issues} issues for ${inOrder.groups} groups`,
    );
    const mixed = shuffled
      ? await score(system, lines, fixtures.projects[slugs[2 * i + 1]!]!, permutation(lines.length, SEED))
      : undefined;
    if (mixed) progress(`${system} shuffled: GA ${mixed.ga.toFixed(3)}, FGA ${mixed.fga.toFixed(3)}`);
    results.push({ system, dir, events: lines.length, inOrder, ...(mixed ? { shuffled: mixed } : {}) });
  }
} finally {
  await stack.stop();
}

const f3 = (x: number) => x.toFixed(3);
const mean = (rows: typeof results, pick: (r: (typeof results)[number]) => number) =>
  rows.reduce((s, r) => s + pick(r), 0) / Math.max(1, rows.length);
const line = (label: string, rows: typeof results) => {
  const ga = mean(rows, (r) => r.inOrder.ga);
  const sga = mean(rows, (r) => r.shuffled?.ga ?? Number.NaN);
  return `| **${label}** | **${f3(ga)}** | **${f3(mean(rows, (r) => r.inOrder.fga))}** | ${shuffled ? `${f3(sga)} | ${f3(Math.abs(sga - ga))} |` : ''} ${mean(rows, (r) => r.inOrder.issues).toFixed(1)} | ${mean(rows, (r) => r.inOrder.groups).toFixed(1)} | |`;
};
const table = [
  `| System | GA | FGA |${shuffled ? ' GA shuffled | difference |' : ''} Issues | True groups | Events/s (ingest + grouping) |`,
  `|---|---|---|${shuffled ? '---|---|' : ''}---|---|---|`,
  ...results.map(
    (r) =>
      `| ${r.system} | ${f3(r.inOrder.ga)} | ${f3(r.inOrder.fga)} |${r.shuffled ? ` ${f3(r.shuffled.ga)} | ${f3(Math.abs(r.shuffled.ga - r.inOrder.ga))} |` : ''} ${r.inOrder.issues} | ${r.inOrder.groups} | ${(r.events / r.inOrder.seconds).toFixed(0)} |`,
  ),
  ...dirs.map((dir) =>
    line(
      `average, ${path.basename(dir)}`,
      results.filter((r) => r.dir === dir),
    ),
  ),
  ...(dirs.length > 1 ? [line('average, all', results)] : []),
].join('\n');
const lowest = results.reduce((a, b) => (b.inOrder.ga < a.inOrder.ga ? b : a));
const header = `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in ${((Date.now() - began) / 1000).toFixed(0)} s on ${dirs.map((d) => path.basename(d)).join(' and ')} (${results.length} files). Targets: average GA >= 0.95, average FGA >= 0.90, no system below GA 0.85 (lowest: ${lowest.system} ${f3(lowest.inOrder.ga)})${shuffled ? ', shuffled delivery within 0.005 of in-order on average' : ''}.`;
console.log(`${header}\n\n${table}`);

progress(`wrote ${writeBenchSection('grouping', 'Log grouping (npm run bench:grouping)', `${header}\n\n${table}`)}`);
process.exit(0);

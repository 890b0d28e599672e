/**
 * `npm run bench:replies [-- --data DIR] [--offline] [--corpus NAME] [--failures N]`: how well the
 * customer's own words are kept from real replies. Every case of the public reply corpora in DIR
 * (default ~/.cache/helpdesk-bench/replies, built by bench/replies-corpora/; see its SOURCES.md: inputs
 * and expected texts as their authors published them) is sent over SMTP to the local stack's inbound
 * address as a new mail from its own sender; the stored message of its ticket is compared with the
 * expected text, whitespace-normalized and exact. `--offline` runs the same extraction in process
 * (seconds, for tuning). Prints a table per corpus and per client and, last,
 * `replies: <N> cases, <P> exact (<pct>%)`. Cases expecting an empty reply are left out (the service
 * never stores an empty message: it keeps the whole text) and counted apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { compareReplies, expectedText, lostWords, type ReplyCase, readCases } from './replies-cases.js';
import { progress } from './stack.js';

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const dir = path.resolve(arg('data') ?? path.join(homedir(), '.cache', 'helpdesk-bench', 'replies'));
const only = arg('corpus');
const showFailures = Number(arg('failures') ?? 0);
const corpora = readdirSync(dir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !e.name.startsWith('_') && (!only || e.name === only))
  .map((e) => e.name)
  .sort();
if (!corpora.length)
  throw new Error(
    `No corpora in ${dir}: build them with sh bench/replies-corpora/build.sh (see bench/replies-corpora/README.md)`,
  );

const all: ReplyCase[] = corpora.flatMap((c) => readCases(readFileSync(path.join(dir, c, 'cases.jsonl'), 'utf8')));
const empty = all.filter((c) => expectedText(c).trim() === '');
const cases = all.filter((c) => expectedText(c).trim() !== '');
progress(`${cases.length} cases from ${corpora.length} corpora (${empty.length} expecting an empty reply left out)`);

const stored = process.argv.includes('--offline')
  ? await (await import('./replies-offline.js')).offlineReplies(cases)
  : await (await import('./replies-smtp.js')).smtpReplies(cases);
const results = cases.map((c) => {
  const text = stored.get(c.id) ?? '';
  return { case: c, exact: compareReplies(c, text), lost: lostWords(c, text) };
});

/** Per group: cases, exact, and those where the customer's words were cut (not merely too much kept). */
const table = (title: string, key: (c: ReplyCase) => string) => {
  const groups = new Map<string, { n: number; ok: number; lost: number }>();
  for (const r of results) {
    const g = groups.get(key(r.case)) ?? { n: 0, ok: 0, lost: 0 };
    g.n++;
    if (r.exact) g.ok++;
    if (r.lost) g.lost++;
    groups.set(key(r.case), g);
  }
  console.log(`\n| ${title} | cases | exact | % | words lost |\n|---|---|---|---|---|`);
  for (const [name, g] of [...groups].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`| ${name} | ${g.n} | ${g.ok} | ${pct(g.ok, g.n)} | ${g.lost} |`);
};
const pct = (ok: number, n: number) => `${((100 * ok) / n).toFixed(1)}%`;
table('corpus', (c) => c.corpus);
table('client', (c) => c.client);
const show = (r: (typeof results)[number]) =>
  console.log(
    `\n--- ${r.case.id} (${r.case.client})\nEXPECTED:\n${expectedText(r.case).trim()}\nSTORED:\n${(stored.get(r.case.id) ?? '').trim()}`,
  );
for (const r of results.filter((x) => !x.exact).slice(0, showFailures)) show(r);
const lost = results.filter((r) => r.lost);
if (lost.length)
  console.log(
    `\nWords lost in ${lost.length}: ${lost
      .slice(0, 40)
      .map((r) => r.case.id)
      .join(', ')}${lost.length > 40 ? ', …' : ''}`,
  );
const ok = results.filter((r) => r.exact).length;
console.log(`replies: ${results.length} cases, ${ok} exact (${pct(ok, results.length)})`);
process.exit(0);

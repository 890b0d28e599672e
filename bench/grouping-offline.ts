/**
 * The grouping rules over Loghub-style CSVs without the stack: token classes and template learning as
 * the consumer applies them, one project per file, merges followed. For tuning the rules quickly;
 * `npm run bench:grouping` measures the deployed path. Run: npx tsx bench/grouping-offline.ts [--data DIR] [--errors] [--v1] [--shuffle SEED].
 */
import { fingerprintOf, issueIdFor } from '@helpdesk/core/areas/logs/fingerprint';
import { fingerprintV1 } from '@helpdesk/core/areas/logs/fingerprint-v1';
import { Templates } from '@helpdesk/core/areas/logs/templates';
import { groupingScores, levelOf, permutation, readLogFiles } from './loghub.js';

const arg = process.argv.indexOf('--data');
const dir = arg >= 0 && process.argv[arg + 1] ? process.argv[arg + 1]! : '../shared/datasets/loghub-2k';
const verbose = process.argv.includes('--errors');
/** `--v1`: grouping version 1 as it was deployed (its fingerprint per event, one issue each, no learning). */
const v1 = process.argv.includes('--v1');
/** `--shuffle N`: learn the lines in a random order (seed N), as parallel consumer batches may take them. */
const shuffleAt = process.argv.indexOf('--shuffle');
const seed = shuffleAt >= 0 ? Number(process.argv[shuffleAt + 1] ?? 1) : undefined;
const order = (n: number) => (seed === undefined ? [...Array(n).keys()] : permutation(n, seed));
const totals = { ga: 0, fga: 0 };
const files = readLogFiles(dir);
for (const { system, lines } of files) {
  const templates = new Templates();
  const mergedInto = new Map<string, string>();
  const resolve = (id: string): string => (mergedInto.has(id) ? resolve(mergedInto.get(id)!) : id);
  const counted: string[] = new Array(lines.length);
  for (const i of order(lines.length)) counted[i] = learnLine(lines[i]!);
  function learnLine(line: (typeof lines)[number]) {
    if (v1) return fingerprintV1({ level: levelOf(line), message: line.content });
    const { fingerprint, title } = fingerprintOf({ level: levelOf(line), message: line.content });
    const own = issueIdFor(system, 'live', fingerprint);
    const words = Templates.wordsOf(title);
    if (!words) return own;
    const learned = templates.learn('', words, own);
    for (const from of learned.merged) mergedInto.set(resolve(from), resolve(learned.issueId));
    if (resolve(own) !== resolve(learned.issueId) && own !== learned.issueId && !mergedInto.has(own))
      mergedInto.set(own, resolve(learned.issueId));
    return learned.issueId;
  }
  const predicted = counted.map(resolve);
  const s = groupingScores(
    lines.map((l) => l.truth),
    predicted,
  );
  totals.ga += s.ga;
  totals.fga += s.fga;
  console.log(
    `${system.padEnd(12)} GA ${s.ga.toFixed(3)} FGA ${s.fga.toFixed(3)} issues ${s.issues} groups ${s.groups}`,
  );
  if (verbose) {
    const byTruth = new Map<string, Map<string, string[]>>();
    lines.forEach((l, i) => {
      const m = byTruth.get(l.truth) ?? byTruth.set(l.truth, new Map()).get(l.truth)!;
      (m.get(predicted[i]!) ?? m.set(predicted[i]!, []).get(predicted[i]!)!).push(l.content);
    });
    const byPred = new Map<string, Set<string>>();
    lines.forEach((l, i) =>
      (byPred.get(predicted[i]!) ?? byPred.set(predicted[i]!, new Set()).get(predicted[i]!)!).add(l.truth),
    );
    for (const [t, m] of byTruth)
      if (m.size > 1)
        console.log(
          `  SPLIT ${t}\n    ${[...m.values()]
            .slice(0, 4)
            .map((v) => `${v.length}x ${parameterizeFor(v[0]!)}`)
            .join('\n    ')}`,
        );
    for (const [, ts] of byPred) if (ts.size > 1) console.log(`  MERGED ${[...ts].slice(0, 4).join('  |  ')}`);
  }
}
console.log(
  `${'average'.padEnd(12)} GA ${(totals.ga / files.length).toFixed(3)} FGA ${(totals.fga / files.length).toFixed(3)}`,
);

function parameterizeFor(content: string) {
  return fingerprintOf({ level: 'info', message: content }).title;
}

/**
 * The grouping rules over Loghub-style CSVs without the stack: token classes and template learning as
 * the consumer applies them, one project per file, merges followed. For tuning the rules quickly;
 * `npm run bench:grouping` measures the deployed path.
 */
import { fingerprintOf, issueIdFor } from '@helpdesk/core/logs/fingerprint';
import { Templates } from '@helpdesk/core/logs/templates';
import { groupingScores, readLogFiles } from './loghub.js';

const dir = process.argv[process.argv.indexOf('--data') + 1] && process.argv.includes('--data') ? process.argv[process.argv.indexOf('--data') + 1]! : '../shared/datasets/loghub-2k';
const verbose = process.argv.includes('--errors');
const learn = !process.argv.includes('--no-learn');
const totals = { ga: 0, fga: 0 };
const files = readLogFiles(dir);
for (const { system, lines } of files) {
  const templates = new Templates();
  const mergedInto = new Map<string, string>();
  const resolve = (id: string): string => (mergedInto.has(id) ? resolve(mergedInto.get(id)!) : id);
  const counted = lines.map((line) => {
    const { fingerprint, title } = fingerprintOf({ level: 'info', message: line.content });
    const own = issueIdFor(system, 'live', fingerprint);
    const words = Templates.wordsOf(title);
    if (!words || !learn) return own;
    const learned = templates.learn('', words, own);
    for (const from of learned.merged) mergedInto.set(resolve(from), resolve(learned.issueId));
    if (resolve(own) !== resolve(learned.issueId) && own !== learned.issueId && !mergedInto.has(own)) mergedInto.set(own, resolve(learned.issueId));
    return learned.issueId;
  });
  const predicted = counted.map(resolve);
  const s = groupingScores(lines.map((l) => l.truth), predicted);
  totals.ga += s.ga;
  totals.fga += s.fga;
  console.log(`${system.padEnd(12)} GA ${s.ga.toFixed(3)} FGA ${s.fga.toFixed(3)} issues ${s.issues} groups ${s.groups}`);
  if (verbose) {
    const byTruth = new Map<string, Map<string, string[]>>();
    lines.forEach((l, i) => {
      const m = byTruth.get(l.truth) ?? byTruth.set(l.truth, new Map()).get(l.truth)!;
      (m.get(predicted[i]!) ?? m.set(predicted[i]!, []).get(predicted[i]!)!).push(l.content);
    });
    const byPred = new Map<string, Set<string>>();
    lines.forEach((l, i) => (byPred.get(predicted[i]!) ?? byPred.set(predicted[i]!, new Set()).get(predicted[i]!)!).add(l.truth));
    for (const [t, m] of byTruth) if (m.size > 1) console.log(`  SPLIT ${t}\n    ${[...m.values()].slice(0, 4).map((v) => `${v.length}x ${parameterizeFor(v[0]!)}`).join('\n    ')}`);
    for (const [, ts] of byPred) if (ts.size > 1) console.log(`  MERGED ${[...ts].slice(0, 4).join('  |  ')}`);
  }
}
console.log(`${'average'.padEnd(12)} GA ${(totals.ga / files.length).toFixed(3)} FGA ${(totals.fga / files.length).toFixed(3)}`);

function parameterizeFor(content: string) {
  return fingerprintOf({ level: 'info', message: content }).title;
}

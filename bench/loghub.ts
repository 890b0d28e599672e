/** Loghub-style CSV files (LogPAI's benchmark format) and the two grouping metrics of its README. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LogLevel } from '@helpdesk/core/areas/logs/values';

/** RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

export interface LogLine {
  content: string;
  level?: string;
  /** The ground-truth group: lines with the same template are one event type. */
  truth: string;
}

export interface LogFile {
  system: string;
  lines: LogLine[];
}

/** Every `*.csv` of a directory with `Content` and `EventTemplate` columns, in name order. */
export function readLogFiles(dir: string): LogFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .map((f) => {
      const [header, ...rows] = parseCsv(readFileSync(path.join(dir, f), 'utf8')).filter((r) => r.length > 1);
      const col = (name: string) => header!.indexOf(name);
      const [content, template, level] = [col('Content'), col('EventTemplate'), col('Level')];
      if (content < 0 || template < 0) throw new Error(`${f}: needs Content and EventTemplate columns`);
      return {
        system: path.basename(f, '.csv'),
        lines: rows.map((r) => ({
          content: r[content]!,
          truth: r[template]!,
          ...(level >= 0 ? { level: r[level] } : {}),
        })),
      };
    });
}

/** Source levels as the service names them; anything else (or none) is info. */
const LEVELS: Record<string, LogLevel> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  err: 'error',
  severe: 'fatal',
  fatal: 'fatal',
  critical: 'fatal',
  crit: 'fatal',
};
export const levelOf = (line: LogLine): LogLevel => LEVELS[line.level?.trim().toLowerCase() ?? ''] ?? 'info';

/**
 * GA (Zhu et al. 2019): a line is right when its predicted group holds exactly the lines of its true
 * group. FGA (Jiang et al. 2024): F1 of predicted groups equal to a true group, over predicted and true groups.
 */
export function groupingScores(truth: string[], predicted: string[]) {
  const members = (labels: string[]) => {
    const groups = new Map<string, number[]>();
    labels.forEach((l, i) => (groups.get(l) ?? groups.set(l, []).get(l)!).push(i));
    return groups;
  };
  const trueGroups = members(truth);
  const predictedGroups = members(predicted);
  let correctLines = 0;
  let correctGroups = 0;
  for (const lines of predictedGroups.values()) {
    const t = truth[lines[0]!]!;
    if (trueGroups.get(t)!.length === lines.length && lines.every((i) => truth[i] === t)) {
      correctGroups++;
      correctLines += lines.length;
    }
  }
  const precision = correctGroups / predictedGroups.size;
  const recall = correctGroups / trueGroups.size;
  return {
    ga: correctLines / truth.length,
    fga: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    issues: predictedGroups.size,
    groups: trueGroups.size,
  };
}

/** A seeded permutation of 0..n-1 (xorshift32), the same on every run: a delivery order for the order checks. */
export function permutation(n: number, seed: number) {
  const idx = Array.from({ length: n }, (_, i) => i);
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx;
}

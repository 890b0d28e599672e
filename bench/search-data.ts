import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Public FAQ retrieval collections with judged queries, fetched by the benchmark itself and cached
 * outside git (~/.cache/helpdesk-bench/search, or --data DIR holding the same file names).
 * - StackFAQ (Karan & Šnajder, "Paraphrase-focused learning to rank for domain-specific FAQ
 *   retrieval", 2018): 125 StackExchange threads, 719 question/answer documents, 1,249 rephrased user
 *   queries; every answer of a query's thread is relevant.
 * - CovidFAQ (JHU COVID-QA): 68 FAQ entries and 1,387 user queries, each judged against one answer.
 * Both as republished in the ML-Recipes/BERT-FAQ repository.
 */
export interface Collection {
  name: string;
  docs: { title: string; body: string }[];
  queries: { text: string; relevant: Set<number> }[];
}

const SOURCES = {
  'stackExchange-FAQ.json':
    'https://raw.githubusercontent.com/ML-Recipes/BERT-FAQ/master/data/StackFAQ/stackExchange-FAQ.json',
  'covid-query_answer_pairs.json':
    'https://raw.githubusercontent.com/ML-Recipes/BERT-FAQ/master/data/CovidFAQ/query_answer_pairs.json',
} as const;

type FileName = keyof typeof SOURCES;

async function file(dir: string, name: FileName): Promise<string> {
  const local = path.join(dir, name);
  if (existsSync(local)) return readFileSync(local, 'utf8');
  const res = await fetch(SOURCES[name]).catch((err: Error) => {
    throw new Error(`Cannot download ${SOURCES[name]} (${err.message}); put the file in ${dir} or pass --data DIR`);
  });
  if (!res.ok) throw new Error(`Cannot download ${SOURCES[name]}: HTTP ${res.status}`);
  const text = await res.text();
  mkdirSync(dir, { recursive: true });
  writeFileSync(local, text);
  return text;
}

export const defaultCacheDir = () => path.join(homedir(), '.cache', 'helpdesk-bench', 'search');

function stackFaq(text: string): Collection {
  const pairs = (
    JSON.parse(text) as {
      root: { qapair: { rephr: (string | null)[]; question: string; answer: string | string[] }[] };
    }
  ).root.qapair;
  const docs: Collection['docs'] = [];
  const queries: Collection['queries'] = [];
  for (const pair of pairs) {
    const answers = Array.isArray(pair.answer) ? pair.answer : [pair.answer];
    const relevant = new Set<number>();
    for (const answer of answers) {
      relevant.add(docs.length);
      docs.push({ title: pair.question, body: answer });
    }
    // `*` marks where the original question stood among the rephrasings.
    for (const q of pair.rephr) if (q && q.trim() !== '*') queries.push({ text: q.trim(), relevant });
  }
  return { name: 'StackFAQ', docs, queries };
}

function covidFaq(text: string): Collection {
  const rows = JSON.parse(text) as { query_type: string; question: string; answer: string }[];
  const docs: Collection['docs'] = [];
  const byAnswer = new Map<string, Set<number>>();
  for (const row of rows.filter((r) => r.query_type === 'faq')) {
    const ids = byAnswer.get(row.answer) ?? new Set<number>();
    ids.add(docs.length);
    byAnswer.set(row.answer, ids);
    docs.push({ title: row.question.trim(), body: row.answer.replace(/\[\[[^\]]*\]\]/g, '').trim() });
  }
  const queries = rows
    .filter((r) => r.query_type !== 'faq' && byAnswer.has(r.answer) && r.question.trim())
    .map((r) => ({ text: r.question.trim().slice(0, 500), relevant: byAnswer.get(r.answer)! }));
  return { name: 'CovidFAQ', docs, queries };
}

/**
 * Collections of other shapes, built by bench/search-corpora/build.sh into `<dir>/<name>/` as
 * docs.jsonl (`{id, title, body}`) and queries.jsonl (`{id, text, relevant: [doc ids]}`); see its
 * SOURCES.md. Q&A forum threads (long bodies), product documentation sections (short headings, long
 * bodies) and near-duplicate FAQ entries.
 */
const JSONL_COLLECTIONS = {
  'semeval-qatarliving-threads': 'QatarLiving threads',
  'samsung-emanual-sections': 'Samsung manual',
  'covid-q-nearduplicates': 'COVID-Q near-duplicates',
} as const;

function jsonlCollection(dir: string, folder: keyof typeof JSONL_COLLECTIONS): Collection | undefined {
  const at = path.join(dir, folder);
  if (!existsSync(path.join(at, 'docs.jsonl'))) return undefined;
  const lines = (name: string) =>
    readFileSync(path.join(at, name), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  const docs = lines('docs.jsonl') as { id: string; title: string; body: string }[];
  const index = new Map(docs.map((d, i) => [d.id, i]));
  const queries = (lines('queries.jsonl') as { text: string; relevant: string[] }[]).map((q) => ({
    text: q.text.slice(0, 500),
    relevant: new Set(q.relevant.flatMap((id) => (index.has(id) ? [index.get(id) as number] : []))),
  }));
  return { name: JSONL_COLLECTIONS[folder], docs: docs.map(({ title, body }) => ({ title, body })), queries };
}

/** StackFAQ and CovidFAQ (downloaded when missing), then every built collection found in `dir`. */
export async function loadCollections(dir: string): Promise<Collection[]> {
  const built = (Object.keys(JSONL_COLLECTIONS) as (keyof typeof JSONL_COLLECTIONS)[]).flatMap(
    (folder) => jsonlCollection(dir, folder) ?? [],
  );
  return [
    stackFaq(await file(dir, 'stackExchange-FAQ.json')),
    covidFaq(await file(dir, 'covid-query_answer_pairs.json')),
    ...built,
  ];
}

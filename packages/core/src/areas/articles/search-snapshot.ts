import MiniSearch, { type Options } from 'minisearch';
import { stemmer } from 'stemmer';
import { must } from '../../kernel/must.js';
import { getObjectText } from '../../kernel/ports/blob-store.js';
import { words } from '../../kernel/ports/embedder.js';
import type { Environment } from '../../kernel/tenant.js';
import { perWord } from './memo.js';
import { isStopWord } from './query.js';

/**
 * A search snapshot of one project and environment: the MiniSearch keyword index of its published
 * articles and the embeddings of their chunks, two S3 objects under one immutable prefix. The
 * SearchIndexState item names the current one.
 */
export interface IndexDoc {
  id: string;
  title: string;
  slug: string;
  excerpt: string | null;
  categoryId: string | null;
  publishedAt: string | null;
  text: string;
}

export type StoredFields = Omit<IndexDoc, 'id' | 'text'>;

/**
 * How index terms are made, by snapshot format: 1 the folded words, 2 also stemmed (Porter: "sending"
 * and "sends" are "send"), 3 also the pairs of adjacent content words (the `pairs` field, for phrase
 * evidence: rank.ts). A snapshot is searched with the processing it was built with; the indexer
 * rebuilds an older one from the table on its next run.
 */
export const INDEX_FORMAT = 3;
/** Porter stems, remembered per word: stemming is most of highlighting's cost. */
const stem = perWord(stemmer);
const TERMS: Record<number, (term: string) => string> = { 1: (term) => term, 2: stem, 3: stem };
export const termOf = (format: number) => TERMS[format] ?? must(TERMS[INDEX_FORMAT], 'the current index format');

/** Joins two stems into a pair term: `+` never occurs in a word, so a pair never equals a word. */
export const pairTerm = (first: string, second: string) => `${first}+${second}`;

/**
 * The pair terms of a text: each content word's stem with the next content word's (stop words skipped,
 * as queries skip them), so "connect the remote" and "remote connecting" share nothing and "connecting
 * the remote" and "connect remote" share `connect+remot`.
 */
export function pairsOf(text: string): string[] {
  const stems = words(text)
    .filter((w) => !isStopWord(w))
    .map(stem);
  return stems.slice(1).map((s, i) => pairTerm(stems[i] as string, s));
}

/** Constructor and loadJSON options must match, so they live here once. */
export const keywordOptions = (format = INDEX_FORMAT): Options<IndexDoc> => ({
  // From format 3 the excerpt is stored, not indexed: derived from the text's start, it counted those words twice.
  fields: format >= 3 ? ['title', 'text', 'pairs'] : ['title', 'excerpt', 'text'],
  storeFields: ['title', 'slug', 'excerpt', 'categoryId', 'publishedAt'],
  // Pairs come from the title and the text apart: no pair spans the two. Stored fields (null included) as they are.
  extractField: (doc, field) =>
    field === 'pairs' ? [...pairsOf(doc.title), ...pairsOf(doc.text)].join(' ') : doc[field as keyof IndexDoc],
  // Same folding as the embedder: "Café" matches "cafe". Pairs are made already.
  tokenize: (text, field) => (field === 'pairs' ? text.split(' ').filter(Boolean) : words(text)),
  processTerm: (term, field) => (field === 'pairs' ? term : termOf(format)(term)),
  // Vacuuming is done by the indexer before it serializes, never in the background.
  autoVacuum: false,
});

export interface VectorDoc {
  /** Hash of the embedder id and the embedded text: unchanged articles are not embedded again. */
  hash: string;
  categoryId: string | null;
  /** One base64 Int8Array per chunk (unit vectors quantized by 127). */
  chunks: string[];
}

export interface VectorFile {
  docs: Record<string, VectorDoc>;
}

export const snapshotKeys = (projectId: string, env: Environment, snapshotId: string) => {
  const prefix = `article-index/${projectId}/${env}/${snapshotId}`;
  return { keyword: `${prefix}/keyword.json`, vectors: `${prefix}/vectors.json` };
};

export const quantize = (v: Float32Array) =>
  Buffer.from(Int8Array.from(v, (x) => Math.max(-127, Math.min(127, Math.round(x * 127)))).buffer).toString('base64');

/** Back to a unit vector. */
export const dequantize = (b64: string) => {
  const bytes = Buffer.from(b64, 'base64');
  const q = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v = Float32Array.from(q, (x) => x / 127);
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
};

export class SnapshotMissingError extends Error {}

async function read(key: string) {
  const text = await getObjectText(key);
  if (text === undefined) throw new SnapshotMissingError(`Search snapshot object ${key} is gone`);
  return text;
}

export const emptyKeywordIndex = () => new MiniSearch<IndexDoc>(keywordOptions());

export const loadKeywordIndex = async (key: string, format = INDEX_FORMAT) =>
  MiniSearch.loadJSONAsync<IndexDoc>(await read(key), keywordOptions(format));

export const loadVectorFile = async (key: string) => JSON.parse(await read(key)) as VectorFile;

import { createHash } from 'node:crypto';
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { awsClientConfig, env } from '../config.js';
import { lazyClient } from '../lazy-client.js';

/**
 * Turns texts into unit-length vectors for semantic search. In AWS it is Amazon Bedrock (Titan Text
 * Embeddings V2); the local stack and tests use a deterministic embedder so results are repeatable
 * without network access.
 */
export interface Embedder {
  /** Names the model and its settings: vectors from different embedders are never compared. */
  readonly id: string;
  readonly dimensions: number;
  /**
   * How much its ranking counts in hybrid search beside keyword search's 1 (areas/articles/search.ts
   * fuse): what the embedder knows that keyword search does not.
   */
  readonly fusionWeight: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

const normalize = (v: Float32Array) => {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
};

/** Words with diacritics folded, as the keyword index sees them. */
export const words = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .match(/[a-z0-9]+/g) ?? [];

/**
 * Feature hashing of words and their character trigrams: texts sharing words (or most of a word, so
 * a typo still lands near) get close vectors. Deterministic and dependency-free.
 */
export function localEmbedder(dimensions = 256): Embedder {
  const bucket = (feature: string) => {
    const h = createHash('sha1').update(feature).digest();
    return { index: h.readUInt32BE(0) % dimensions, sign: (h[4] ?? 0) & 1 ? 1 : -1 };
  };
  const embedOne = (text: string) => {
    const v = new Float32Array(dimensions);
    for (const word of words(text)) {
      const w = bucket(`w:${word}`);
      v[w.index] = (v[w.index] ?? 0) + 2 * w.sign;
      const padded = `^${word}$`;
      for (let i = 0; i + 3 <= padded.length; i++) {
        const t = bucket(`t:${padded.slice(i, i + 3)}`);
        v[t.index] = (v[t.index] ?? 0) + t.sign;
      }
    }
    return normalize(v);
  };
  return {
    id: `local-hash-${dimensions}`,
    dimensions,
    // Lexical, so it only breaks keyword search's near-ties: at 0.05 hybrid was at or above keyword on all
    // five bench collections, at 0.1-0.3 below it on the product manual (docs/decisions.md, Knowledge base).
    fusionWeight: 0.05,
    embed: async (texts) => texts.map(embedOne),
  };
}

/** Titan V2 takes one text per call; a few calls run in parallel to stay under the model's throttle. */
const BEDROCK_CONCURRENCY = 4;

export function bedrockEmbedder(
  /** dimensions: 256, 512 or 1024 for Titan V2. */
  options: { client?: BedrockRuntimeClient; modelId?: string; dimensions?: number } = {},
): Embedder {
  // The Bedrock client loads on the first embedding, not at cold start.
  const bedrock = lazyClient(
    () => import('@aws-sdk/client-bedrock-runtime'),
    (sdk) => options.client ?? new sdk.BedrockRuntimeClient(awsClientConfig('bedrock')),
  );
  const modelId = options.modelId ?? env.embeddingModelId;
  const dimensions = options.dimensions ?? 512;
  const embedOne = async (text: string) => {
    const { sdk, client } = await bedrock();
    const out = await client.send(
      new sdk.InvokeModelCommand({
        modelId,
        contentType: 'application/json',
        accept: 'application/json',
        body: JSON.stringify({ inputText: text, dimensions, normalize: true }),
      }),
    );
    const parsed = JSON.parse(new TextDecoder().decode(out.body)) as { embedding?: number[] };
    if (!Array.isArray(parsed.embedding) || parsed.embedding.length !== dimensions) {
      throw new Error(`Bedrock ${modelId} returned no ${dimensions}-dimension embedding`);
    }
    return normalize(Float32Array.from(parsed.embedding));
  };
  return {
    id: `bedrock:${modelId}:${dimensions}`,
    dimensions,
    // Meaning keyword search cannot see (paraphrase); not measurable without network access, so the
    // weight chosen before issue 31's changes to keyword ranking is kept.
    fusionWeight: 0.2,
    async embed(texts) {
      const result: Float32Array[] = new Array(texts.length);
      let next = 0;
      const worker = async () => {
        while (next < texts.length) {
          const i = next++;
          result[i] = await embedOne(texts[i] ?? '');
        }
      };
      await Promise.all(Array.from({ length: Math.min(BEDROCK_CONCURRENCY, texts.length) }, worker));
      return result;
    },
  };
}

let selected: Embedder | undefined;
/** The embedder this deployment uses (env.embedderMode), created once per Lambda instance. */
export const embedder = (): Embedder =>
  (selected ??= env.embedderMode === 'bedrock' ? bedrockEmbedder() : localEmbedder());

/**
 * `npm run bench:search [-- --data DIR] [-- --quick] [-- --offline]`: knowledge-base search quality,
 * indexing speed and search latency, measured through the API on a fresh local stack.
 * - Quality: each collection (bench/search-data.ts: StackFAQ and CovidFAQ, downloaded; forum threads,
 *   manual sections and near-duplicate FAQs, built by bench/search-corpora/build.sh) is loaded as
 *   published articles of its own project, every judged query runs through GET /articles/search in
 *   keyword and hybrid mode, and MRR@10, nDCG@10, Recall@10 and P@1 are printed beside a plain BM25
 *   (k1 0.9, b 0.4) computed here over the same text with the service's tokenizer, with the mean over
 *   collections. Targets: keyword nDCG >= BM25 + 0.05 and hybrid >= keyword on every collection.
 *   `--offline` measures quality alone, in process (bench/search-offline.ts).
 * - Indexing: 1,000 articles published as fast as the API takes them (20 clients); the time from the
 *   last publish until all are searchable, and every error the consumers log meanwhile (a failed
 *   indexer batch). Target: within 15 s, no failed batch.
 * - Latency: GET /articles/search over 2,000 articles with 20 concurrent clients (in a worker thread,
 *   as bench/throughput.ts runs them), real user queries. Target p50 <= 50 ms, p95 <= 100 ms.
 * Writes its table to docs/benchmarks.md between its own markers.
 */
import path from 'node:path';
import { writeBenchSection } from './docs-section.js';
import { type Collection, defaultCacheDir, loadCollections } from './search-data.js';
import { bm25, meanScores, type Scores, scoreRanking } from './search-metrics.js';
import { type Call, createFixtures, progress, startStack } from './stack.js';
import { CLIENTS, load } from './throughput.js';

const argValue = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const quick = process.argv.includes('--quick');
const dataDir = path.resolve(argValue('--data') ?? defaultCacheDir());
const INDEXING_ARTICLES = quick ? 200 : 1_000;
const LATENCY_ARTICLES = quick ? 400 : 2_000;

const collections = await loadCollections(dataDir);
if (collections.length < 5)
  progress(
    `${collections.length} collections in ${dataDir}; build the other three with sh bench/search-corpora/build.sh`,
  );

const f3 = (x: number) => x.toFixed(3);
const verdict = (ok: boolean) => (ok ? 'met' : '**miss**');
/** Keyword must beat BM25 by this much nDCG@10 on every collection (issue 31). */
const MARGIN = 0.05;
type Quality = { collection: Collection; keyword: Scores; hybrid: Scores; baseline: Scores };
const signed = (x: number) => `${x >= 0 ? '+' : ''}${f3(x)}`;
const qualityRows = (quality: Quality[]) => {
  const mean = (pick: (q: Quality) => Scores) => meanScores(quality.map(pick));
  const rows = [
    ...quality.map((q) => ({
      name: `${q.collection.name} (${q.collection.docs.length} docs, ${q.collection.queries.length} queries)`,
      ...q,
    })),
    {
      name: 'Mean over collections',
      keyword: mean((q) => q.keyword),
      hybrid: mean((q) => q.hybrid),
      baseline: mean((q) => q.baseline),
    },
  ];
  const cells = (s: Scores) => `${f3(s.mrr)} | ${f3(s.ndcg)} | ${f3(s.recall)} | ${f3(s.p1)}`;
  return [
    `| Collection | Ranking | MRR@10 | nDCG@10 | Recall@10 | P@1 | Target |`,
    '|---|---|---|---|---|---|---|',
    ...rows.flatMap(({ name, keyword, hybrid, baseline }) => [
      `| ${name} | keyword | ${cells(keyword)} | nDCG >= BM25 + ${MARGIN}: ${verdict(keyword.ndcg >= baseline.ndcg + MARGIN)} (${signed(keyword.ndcg - baseline.ndcg)}) |`,
      `| | hybrid (local embedder) | ${cells(hybrid)} | nDCG >= keyword: ${verdict(hybrid.ndcg >= keyword.ndcg)} (${signed(hybrid.ndcg - keyword.ndcg)}) |`,
      `| | BM25 (k1 0.9, b 0.4) | ${cells(baseline)} | |`,
    ]),
  ];
};

if (process.argv.includes('--offline')) {
  const { offlineQuality } = await import('./search-offline.js');
  console.log(qualityRows(await offlineQuality(collections)).join('\n'));
  process.exit(0);
}

/** Runs `work` over `items` with `clients` concurrent workers. */
async function pool<T, R>(items: T[], clients: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!, i);
      }
    }),
  );
  return out;
}

// Failed indexer batches: the consumer logs each failure (queues/consumer.ts) at level ERROR.
let consumerErrors = 0;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (text.includes('"level":"ERROR"')) {
    consumerErrors++;
    return true;
  }
  return write(chunk, ...rest);
}) as typeof process.stdout.write;

const began = Date.now();
progress(
  `collections from ${dataDir}: ${collections.map((c) => `${c.name} ${c.docs.length} docs / ${c.queries.length} queries`).join(', ')}`,
);
const stack = await startStack({ logLevel: 'ERROR' });
const slugOf = (c: Collection) => c.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const slugs = [...collections.map(slugOf), 'indexing', 'latency'];

function publish(call: Call, project: string, docs: { title: string; body: string }[]) {
  return pool(docs, CLIENTS, async (doc) => {
    const res = await call('POST', '/articles', {
      project,
      body: { title: doc.title.slice(0, 200) || 'Untitled', body: doc.body.slice(0, 100_000), status: 'published' },
    });
    if (res.status !== 200) throw new Error(`POST /articles: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return (res.body as { id: string }).id;
  });
}

async function drained(queue: 'articleIndex') {
  while ((await stack.waiting(queue)) > 0) await new Promise((r) => setTimeout(r, 100));
}

const quality: Quality[] = [];
let indexing = { seconds: 0, publishSeconds: 0, failed: 0, found: 0 };
let latency = { p50: 0, p95: 0, requests: 0 };
try {
  const fixtures = await createFixtures(slugs);
  stack.useKey(fixtures.key);
  stack.startConsumers();

  for (const collection of collections) {
    const project = fixtures.projects[slugOf(collection)]!;
    progress(`${collection.name}: publishing ${collection.docs.length} articles`);
    const ids = await publish(stack.call, project, collection.docs);
    await drained('articleIndex');
    const docOf = new Map(ids.map((id, i) => [id, i]));
    progress(`${collection.name}: ${collection.queries.length} queries`);
    const baseline = bm25(collection.docs);
    const scored = (mode: 'keyword' | 'hybrid') =>
      pool(collection.queries, 4, async (q) => {
        const res = await stack.call('GET', '/articles/search', { project, query: { q: q.text, limit: 10, mode } });
        if (res.status !== 200) throw new Error(`search: ${res.status} ${JSON.stringify(res.body)}`);
        return scoreRanking(
          (res.body as { results: { id: string }[] }).results.map((r) => docOf.get(r.id)!),
          q.relevant,
        );
      });
    quality.push({
      collection,
      keyword: meanScores(await scored('keyword')),
      hybrid: meanScores(await scored('hybrid')),
      baseline: meanScores(collection.queries.map((q) => scoreRanking(baseline(q.text), q.relevant))),
    });
  }

  // Indexing: many articles published at once, every one searchable by its own word.
  const project = fixtures.projects.indexing!;
  const marker = 'quokkaindex';
  const docs = Array.from({ length: INDEXING_ARTICLES }, (_, i) => ({
    title: `Indexing article ${i}`,
    body: `${marker} body ${i}: ${collections[0]!.docs[i % collections[0]!.docs.length]!.body}`,
  }));
  progress(`indexing: publishing ${docs.length} articles with ${CLIENTS} clients`);
  const errorsBefore = consumerErrors;
  const published = performance.now();
  await publish(stack.call, project, docs);
  const lastPublish = performance.now();
  let found = 0;
  while (found < docs.length && performance.now() - lastPublish < 120_000) {
    // What the table's stream hands the deployed relay within a second of each commit.
    await stack.relay();
    found = 0;
    for (let page = 1; ; page++) {
      const res = await stack.call('GET', '/articles/search', { project, query: { q: marker, limit: 100, page } });
      const n = (res.body as { count: number }).count;
      found += n;
      if (n < 100) break;
    }
    if (found < docs.length) await new Promise((r) => setTimeout(r, 250));
  }
  indexing = {
    seconds: (performance.now() - lastPublish) / 1000,
    publishSeconds: (lastPublish - published) / 1000,
    failed: consumerErrors - errorsBefore,
    found,
  };
  progress(
    `indexing: ${found}/${docs.length} searchable ${indexing.seconds.toFixed(1)} s after the last publish; ${indexing.failed} consumer errors`,
  );

  // Latency over LATENCY_ARTICLES articles, with queries from the first collection.
  const latencyProject = fixtures.projects.latency!;
  const pool2 = collections.flatMap((c) => c.docs);
  const latencyDocs = Array.from({ length: LATENCY_ARTICLES }, (_, i) => pool2[i % pool2.length]!);
  progress(`latency: publishing ${latencyDocs.length} articles`);
  await publish(stack.call, latencyProject, latencyDocs);
  await drained('articleIndex');
  // One warm-up search loads the snapshot into the instance, as the first search after a publish does.
  await stack.call('GET', '/articles/search', { project: latencyProject, query: { q: 'warm up' } });
  // The clients run in a worker thread (bench/throughput.ts), apart from the server's event loop.
  const run = await load(
    'GET /articles/search (StackFAQ queries)',
    {
      kind: 'api',
      op: 'searchQueries',
      params: { queries: JSON.stringify(collections[0]!.queries.map((q) => q.text)) },
      apiUrl: stack.apiUrl,
      key: stack.key(),
      project: latencyProject,
    },
    quick ? 5 : 15,
  );
  latency = { p50: run.p50, p95: run.p95, requests: run.requests };
  progress(
    `latency: p50 ${latency.p50.toFixed(0)} ms, p95 ${latency.p95.toFixed(0)} ms over ${latency.requests} searches`,
  );
} finally {
  await stack.stop();
}

const table = [
  ...qualityRows(quality),
  '',
  '| Measure | Value | Target | |',
  '|---|---|---|---|',
  `| Indexing: ${INDEXING_ARTICLES} articles published in ${indexing.publishSeconds.toFixed(1)} s (${CLIENTS} clients), all searchable after the last publish | ${indexing.seconds.toFixed(1)} s (${indexing.found} found) | <= 15 s | ${verdict(indexing.seconds <= 15 && indexing.found === INDEXING_ARTICLES)} |`,
  `| Failed indexer batches meanwhile | ${indexing.failed} | 0 | ${verdict(indexing.failed === 0)} |`,
  `| Search latency p50 over ${LATENCY_ARTICLES} articles, ${CLIENTS} clients, ${latency.requests} searches | ${latency.p50.toFixed(0)} ms | <= 50 ms | ${verdict(latency.p50 <= 50)} |`,
  `| Search latency p95 | ${latency.p95.toFixed(0)} ms | <= 100 ms | ${verdict(latency.p95 <= 100)} |`,
  '',
  'Hybrid here fuses keyword search with the local embedder (feature hashing of words and trigrams: lexical, not semantic); with EMBEDDER=bedrock it fuses with Titan embeddings.',
].join('\n');
const header = `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in ${((Date.now() - began) / 1000).toFixed(0)} s${quick ? ' (--quick)' : ''}.`;
console.log(`${header}\n\n${table}`);
if (!quick) {
  progress(
    `wrote ${writeBenchSection('search', 'Knowledge-base search (npm run bench:search)', `${header}\n\n${table}`)}`,
  );
}
process.exit(0);

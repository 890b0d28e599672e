import { rankBm25f } from '@helpdesk/core/areas/articles/rank';
import { fuse, keywordRanking } from '@helpdesk/core/areas/articles/search';
import { INDEX_FORMAT, type IndexDoc, keywordOptions } from '@helpdesk/core/areas/articles/search-snapshot';
import { localEmbedder } from '@helpdesk/core/kernel/ports/embedder';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';

/** An index built with the snapshot's own options, from title/text pairs. */
function indexOf(docs: [string, string][]) {
  const index = new MiniSearch<IndexDoc>(keywordOptions());
  index.addAll(
    docs.map(([title, text], i) => ({
      id: `d${i}`,
      title,
      slug: `d${i}`,
      excerpt: null,
      categoryId: i % 2 ? 'odd' : null,
      publishedAt: null,
      text,
    })),
  );
  return { keyword: index, format: INDEX_FORMAT };
}
const ids = (hits: { id: string }[]) => hits.map((h) => h.id);
const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('keyword ranking (BM25F)', () => {
  it('lets a section whose text answers every word beat a short heading sharing one', () => {
    const snap = indexOf([
      ['Remote', 'Pairing a device.'],
      ['Quick guides', `To pair the smart remote with the television, hold the pair button. ${filler(40)}`],
      ['Picture settings', filler(60)],
    ]);
    expect(ids(keywordRanking(snap, 'how do I pair the smart remote with my television', undefined))[0]).toBe('d1');
  });

  it('still ranks a title that rephrases the question first, and saturates repeated words', () => {
    const snap = indexOf([
      ['How do I reset my password?', 'Use the link we email you.'],
      ['Account settings', `password ${'password '.repeat(30)} reset ${filler(30)}`],
    ]);
    expect(ids(keywordRanking(snap, 'reset password', undefined))).toEqual(['d0', 'd1']);
  });

  it('tells FAQ entries apart by their question word, matched in titles only', () => {
    const snap = indexOf([
      ['How is the virus spread?', 'Mostly through droplets when people are close.'],
      ['Why is the virus spread so fast?', 'Many people carry it without symptoms.'],
      ['What is the virus?', `How it spreads, why, what to do and when: ${filler(20)} virus spread.`],
    ]);
    expect(ids(keywordRanking(snap, 'why does the virus spread', undefined))[0]).toBe('d1');
    expect(ids(keywordRanking(snap, 'how does the virus spread', undefined))[0]).toBe('d0');
    // In a text "how" and "why" are everywhere: the third entry, which has them only there, gains nothing by them.
    const scoreOf = (q: string, id: string) => keywordRanking(snap, q, undefined).find((h) => h.id === id)?.score;
    expect(scoreOf('why virus', 'd2')).toBe(scoreOf('virus', 'd2'));
    expect(scoreOf('why virus', 'd1')).toBeGreaterThan(scoreOf('virus', 'd1') as number);
  });

  it('prefers the article where the query words stand together (phrase evidence)', () => {
    const snap = indexOf([
      ['Notes', `The card was declined. ${filler(10)} Credit is shown later.`],
      ['Notes', `Your credit card was declined. ${filler(10)}`],
    ]);
    expect(ids(keywordRanking(snap, 'credit card', undefined))[0]).toBe('d1');
  });

  it('matches stems, prefixes and one typo, and keeps to the filter', () => {
    const snap = indexOf([
      ['Exporting data', 'Exports are emailed.'],
      ['Importing data', 'Imports run nightly.'],
    ]);
    expect(ids(keywordRanking(snap, 'export', undefined))).toEqual(['d0']);
    expect(ids(keywordRanking(snap, 'expo', undefined))).toEqual(['d0']);
    expect(ids(keywordRanking(snap, 'exportt', undefined))).toEqual(['d0']);
    expect(
      ids(
        rankBm25f(
          snap.keyword,
          [{ term: 'data', titleOnly: false, prefix: false, typo: false }],
          (s) => s.categoryId === 'odd',
        ),
      ),
    ).toEqual(['d1']);
  });
});

describe('hybrid fusion', () => {
  it('lets the semantic side reorder near-ties and add misses, never undo a clear keyword win', () => {
    const keyword = [
      { id: 'a', score: 10, terms: [] },
      { id: 'b', score: 5, terms: [] },
      { id: 'c', score: 4.9, terms: [] },
    ];
    const semantic = [
      { id: 'd', score: 0.9, terms: [] },
      { id: 'c', score: 0.8, terms: [] },
      { id: 'b', score: 0.2, terms: [] },
    ];
    expect(ids(fuse(keyword, semantic, 0.2))).toEqual(['a', 'c', 'b', 'd']);
    // The local embedder's weight: only near-ties move.
    expect(ids(fuse(keyword, semantic, localEmbedder().fusionWeight))).toEqual(['a', 'c', 'b', 'd']);
  });
});

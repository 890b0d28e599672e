import { perWord } from '@helpdesk/core/areas/articles/memo';
import { highlight, queryWords } from '@helpdesk/core/areas/articles/query';
import { termOf } from '@helpdesk/core/areas/articles/search-snapshot';
import { describe, expect, it } from 'vitest';

describe('query words', () => {
  it('drops stop words, folds case and accents, and keeps a query made only of stop words', () => {
    const content = (...list: string[]) => list.map((word) => ({ word, titleOnly: false }));
    expect(queryWords('I want to delete ALL mail from my Café account')).toEqual(
      content('delete', 'mail', 'cafe', 'account'),
    );
    expect(queryWords('how do I')).toEqual(content('how', 'do', 'i'));
    expect(queryWords('  ')).toEqual([]);
  });

  it('keeps question words, for titles only', () => {
    expect(queryWords('Why does my Export fail?')).toEqual([
      { word: 'why', titleOnly: true },
      { word: 'export', titleOnly: false },
      { word: 'fail', titleOnly: false },
    ]);
  });

  it('stems both sides alike (format 2), so sending finds send', () => {
    const stem = termOf(2);
    expect(stem('sending')).toBe(stem('send'));
    expect(stem('accounts')).toBe(stem('account'));
    expect(termOf(1)('sending')).toBe('sending');
  });
});

describe('highlight', () => {
  it('wraps the matched words in <em> and escapes the rest', () => {
    const matched = new Set([termOf(2)('password')]);
    expect(highlight('Reset <your> Passwords & more', matched, termOf(2))).toBe(
      'Reset &lt;your&gt; <em>Passwords</em> &amp; more',
    );
    expect(highlight('Nothing here', matched, termOf(2))).toBe('Nothing here');
  });
});

describe('perWord', () => {
  it('computes each word once, and forgets all it knows once it holds `kept` words', () => {
    const calls: string[] = [];
    const upper = perWord((w) => {
      calls.push(w);
      return w.toUpperCase();
    }, 2);
    expect([upper('a'), upper('b'), upper('a')]).toEqual(['A', 'B', 'A']);
    expect(calls).toEqual(['a', 'b']);
    upper('c');
    upper('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});

import { readFileSync } from 'node:fs';
import { markdownToText } from '@helpdesk/core/areas/articles/text';
import { htmlToText } from '@helpdesk/core/areas/templates/text';
import { describe, expect, it } from 'vitest';
import { ARTICLE_MARKDOWN, TEXT_CASES } from './text-cases.js';

// Captured from the html-to-text implementation before it was replaced: the plain text must not change.
const golden = (name: string) => readFileSync(new URL(`./golden/text/${name}.txt`, import.meta.url), 'utf8');

describe('plain-text conversion (golden outputs of the previous implementation)', () => {
  it.each(Object.entries(TEXT_CASES))('email text of %s is unchanged', (name, html) => {
    expect(htmlToText(html)).toBe(golden(name));
  });
  it.each(Object.entries(ARTICLE_MARKDOWN))('article text of %s is unchanged', async (name, markdown) => {
    expect(await markdownToText(markdown)).toBe(golden(`article-${name}`));
  });
});

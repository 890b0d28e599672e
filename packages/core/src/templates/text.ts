import { convert, type SelectorDefinition } from 'html-to-text';

const block = (selector: string): SelectorDefinition => ({
  selector,
  options: { leadingLineBreaks: 1, trailingLineBreaks: 1, uppercase: false },
});

const selectors: SelectorDefinition[] = [
  { selector: 'a', options: { linkBrackets: ['(', ')'], hideLinkHrefIfSameAsText: true, ignoreHref: false } },
  { selector: 'img', format: 'skip' },
  { selector: 'head', format: 'skip' },
  ...['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'tr', 'ul', 'ol'].map(block),
  { selector: 'ul', options: { itemPrefix: '- ', leadingLineBreaks: 1, trailingLineBreaks: 1 } },
  { selector: 'hr', options: { leadingLineBreaks: 1, trailingLineBreaks: 1, length: 20 } },
];

/** The plain-text part of an email: tags stripped, links as `text (url)`, one line per block. */
export function htmlToText(html: string): string {
  return convert(html, { wordwrap: false, selectors })
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .join('\n');
}

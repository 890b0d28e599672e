import { compile, type SelectorDefinition } from 'html-to-text';

const block = (selector: string, format = 'block'): SelectorDefinition => ({
  selector,
  format,
  options: { leadingLineBreaks: 1, trailingLineBreaks: 1, uppercase: false },
});

/** Email layouts are built from tables: their cells are blocks, not data to lay out in columns. */
const converter = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { linkBrackets: ['(', ')'], hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'head', format: 'skip' },
    ...['p', 'div', 'pre', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th'].map((s) => block(s)),
    block('blockquote', 'blockquote'),
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((s) => block(s, 'heading')),
    { selector: 'ul', options: { itemPrefix: '- ', leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'ol', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'hr', options: { leadingLineBreaks: 1, trailingLineBreaks: 1, length: 20 } },
  ],
});

/** The plain-text part of an email: tags stripped, links as `text (url)`, one line per block. */
export function htmlToText(html: string): string {
  return converter(html)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .join('\n');
}

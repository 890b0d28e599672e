import { compile, type FormatCallback, type SelectorDefinition } from 'html-to-text';

const block = (selector: string, format = 'block'): SelectorDefinition => ({
  selector,
  format,
  options: { leadingLineBreaks: 1, trailingLineBreaks: 1, uppercase: false },
});

/**
 * Numbered items start at the margin, as `- ` items do: the built-in formatter pads top-level numbers
 * with a space (` 1. `). Otherwise it works as the built-in one (`start` honoured, numbers only).
 */
const orderedList: FormatCallback = (elem, walk, builder, options) => {
  const nested = elem.parent?.name === 'li';
  let index = Number(elem.attribs?.start ?? '1');
  const items = (elem.children ?? [])
    .filter((child) => child.type !== 'text' || !/^\s*$/.test(child.data ?? ''))
    .map((node) => ({ node, prefix: node.name === 'li' ? `${index++}. ` : '' }));
  if (!items.length) return;
  builder.openList({
    interRowLineBreaks: 1,
    leadingLineBreaks: nested ? 1 : (options.leadingLineBreaks ?? 2),
    maxPrefixLength: Math.max(...items.map((i) => i.prefix.length)),
    prefixAlign: 'left',
  });
  for (const { node, prefix } of items) {
    builder.openListItem({ prefix });
    walk([node], builder);
    builder.closeListItem();
  }
  builder.closeList({ trailingLineBreaks: nested ? 1 : (options.trailingLineBreaks ?? 2) });
};

/** Email layouts are built from tables: their cells are blocks, not data to lay out in columns. */
const converter = compile({
  wordwrap: false,
  formatters: { orderedList },
  selectors: [
    { selector: 'a', options: { linkBrackets: ['(', ')'], hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'head', format: 'skip' },
    ...['p', 'div', 'pre', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th'].map((s) => block(s)),
    block('blockquote', 'blockquote'),
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((s) => block(s, 'heading')),
    { selector: 'ul', options: { itemPrefix: '- ', leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'ol', format: 'orderedList', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
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

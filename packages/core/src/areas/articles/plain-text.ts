import { must } from '../../kernel/must.js';
import { trimChars } from '../../kernel/text.js';

/**
 * The plain text of an article: the HTML marked renders for it, laid out line by line exactly as
 * html-to-text laid it out before (test/templates/golden/text/article-*.txt hold its outputs), with
 * the options articles used: no word wrap, links and headings as their text, images skipped, tables
 * as columns. html-to-text parsed any HTML with htmlparser2 and picked formats with CSS selectors
 * (~240 KB bundled); marked's output is a small, known set of tags, so a short reader and the part
 * of html-to-text's block builder those tags use do the same job in a few KB.
 */

interface Element {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
}
type Node = Element | string;

const VOID = new Set(['br', 'hr', 'img', 'input', 'wbr']);
// marked escapes `<` and `>` in text and attribute values, so a tag ends at the first `>` (one linear pass).
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)(?![a-zA-Z0-9])([^<>]*)>/g;
const ATTR = /([^\s/>=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** The character references marked itself writes (its `escape()`), as they decode. */
const MARKED_REFERENCES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const MARKED_REFERENCE = /&(?:amp|lt|gt|quot|#39);/g;

/**
 * How the text of `html` decodes: with only marked's own references in it, a replace; with any other
 * (`&copy;`, `&nbsp;` written in the article), the full HTML decoder htmlparser2 uses, loaded then
 * (38 KB: its table of every named reference). The two agree on marked's references.
 */
async function decoderFor(html: string): Promise<(text: string) => string> {
  if (html.replace(MARKED_REFERENCE, '').includes('&')) return (await import('entities')).decodeHTML;
  return (text) => text.replace(MARKED_REFERENCE, (ref) => MARKED_REFERENCES[ref] ?? ref);
}

/** Reads the HTML marked renders (raw HTML in articles is escaped to text first) into a tree. */
function parse(html: string, decodeHTML: (text: string) => string): Node[] {
  const root: Element = { name: '', attrs: {}, children: [] };
  const open: Element[] = [root];
  const text = (raw: string) => {
    if (!raw) return;
    const children = (open.at(-1) ?? root).children;
    const decoded = decodeHTML(raw);
    if (typeof children.at(-1) === 'string') children[children.length - 1] += decoded;
    else children.push(decoded);
  };
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    text(html.slice(last, match.index));
    last = match.index + match[0].length;
    const [, closing, rawName, rawAttrs = ''] = match;
    const selfClosing = rawAttrs.trimEnd().endsWith('/');
    const name = (rawName ?? '').toLowerCase();
    if (closing) {
      const at = open.findLastIndex((el) => el.name === name);
      if (at > 0) open.length = at;
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [, key, ...values] of rawAttrs.matchAll(ATTR))
      attrs[(key ?? '').toLowerCase()] = decodeHTML(values.find((v) => v !== undefined) ?? '');
    const element: Element = { name, attrs, children: [] };
    (open.at(-1) ?? root).children.push(element);
    if (!VOID.has(name) && !selfClosing) open.push(element);
  }
  text(html.slice(last));
  return root.children;
}

/** Words of one block, wrapped at `width` (only table cells have one). */
class InlineText {
  lines: string[][] = [];
  words: string[] = [];
  available: number;
  stashedSpace = false;

  constructor(readonly width = Number.MAX_VALUE) {
    this.available = width;
  }

  push(word: string) {
    if (this.available <= 0) this.newLine();
    const start = this.words.length === 0;
    const cost = word.length + (start ? 0 : 1);
    if (cost > this.available && !start) this.newLine();
    this.available -= word.length + (this.words.length === 0 ? 0 : 1);
    this.words.push(word);
  }

  /** Glues a word to the previous one (no whitespace between them in the HTML). */
  concat(word: string) {
    const previous = this.words.pop();
    if (previous !== undefined) this.available += previous.length + (this.words.length === 0 ? 0 : 1);
    this.push(previous === undefined ? word : previous + word);
  }

  newLine(count = 1) {
    this.lines.push(this.words, ...Array.from({ length: count - 1 }, () => []));
    this.words = [];
    this.available = this.width;
  }

  isEmpty = () => this.lines.length === 0 && this.words.length === 0;

  clear() {
    this.lines = [];
    this.words = [];
    this.available = this.width;
  }

  toString = () => [...this.lines, this.words].map((words) => words.join(' ')).join('\n');
}

const WORD = /[^ \t\r\n\f\u200b]+/g;
const hasWords = (text: string) => /[^ \t\r\n\f\u200b]/.test(text);
const leadingSpace = (text: string) => /^[ \t\r\n\f\u200b]/.test(text);
const trailingSpace = (text: string) => /[ \t\r\n\f\u200b]$/.test(text);

/** A block, list, list item or table cell whose text is being built (html-to-text's stack items). */
class Block {
  raw = '';
  stashedBreaks = 0;
  readonly inline: InlineText;
  pre: boolean;
  /** Lists: the longest item marker and the breaks between items. */
  prefixWidth = 0;
  /** List items: the marker. */
  prefix = '';

  constructor(
    readonly parent: Block | undefined,
    public leadingBreaks: number,
    width?: number,
  ) {
    this.inline = new InlineText(width);
    this.pre = parent?.pre ?? false;
  }

  text = () => (this.inline.isEmpty() ? this.raw : this.raw + this.inline.toString());

  /** Appends a finished child's text after the breaks both ask for. */
  add(text: string, leadingBreaks: number, trailingBreaks: number) {
    const current = this.text();
    const breaks = Math.max(this.stashedBreaks, leadingBreaks);
    this.inline.clear();
    if (current) this.raw = current + '\n'.repeat(breaks) + text;
    else {
      this.raw = text;
      this.leadingBreaks = breaks;
    }
    this.stashedBreaks = trailingBreaks;
  }
}

class Builder {
  block = new Block(undefined, 1);

  inline(text: string) {
    const block = this.block;
    if (block.pre) {
      block.raw += text;
      return;
    }
    if (text.length === 0 || (block.stashedBreaks && !hasWords(text))) return;
    if (block.stashedBreaks) block.inline.newLine(block.stashedBreaks);
    const inline = block.inline;
    const stashed = inline.stashedSpace;
    const words = text.match(WORD) ?? [];
    for (const [i, word] of words.entries()) {
      if (i > 0 || stashed || leadingSpace(text)) inline.push(word);
      else inline.concat(word);
    }
    inline.stashedSpace = (stashed && words.length === 0) || trailingSpace(text);
    block.stashedBreaks = 0;
  }

  lineBreak() {
    if (this.block.pre) this.block.raw += '\n';
    else this.block.inline.newLine();
  }

  /** A child block, `reserved` characters narrower than this one (it only matters where lines wrap: table cells). */
  open(leadingBreaks: number, { pre = false, reserved = 0 } = {}) {
    this.block = new Block(this.block, leadingBreaks, Math.max(20, this.block.inline.width - reserved));
    if (pre) this.block.pre = true;
  }

  close(trailingBreaks: number, transform = (text: string) => text) {
    const block = this.block;
    this.block = must(block.parent, 'an enclosing block');
    this.block.add(transform(block.text()), block.leadingBreaks, Math.max(block.stashedBreaks, trailingBreaks));
  }

  closeItem() {
    const item = this.block;
    const list = must(item.parent, 'the list of an item');
    this.block = list;
    const width = Math.max(item.prefix.length, list.prefixWidth);
    list.add(
      item.prefix.padEnd(width) + item.text().replace(/\n/g, `\n${' '.repeat(width)}`),
      item.leadingBreaks,
      Math.max(item.stashedBreaks, 1),
    );
  }

  closeList(trailingBreaks: number) {
    const list = this.block;
    this.block = must(list.parent, 'the block around a list');
    const text = list.text();
    if (text) this.block.add(text, list.leadingBreaks, trailingBreaks);
  }
}

const isBlank = (node: Node) => typeof node === 'string' && /^\s*$/.test(node);
const HEADING_BREAKS: Record<string, number> = { h1: 3, h2: 3, h3: 3, h4: 2, h5: 2, h6: 2 };
const CONTAINERS = new Set(['article', 'aside', 'div', 'footer', 'form', 'header', 'main', 'nav', 'section']);
const COLUMN_WIDTH = 60;
const COLUMN_SPACING = 3;

function list(el: Element, b: Builder, walk: (nodes: Node[]) => void, nested: boolean) {
  let index = Number(el.attrs.start || '1');
  const marker = () => (el.name === 'ol' ? ` ${index++}. ` : ' * ');
  const items = el.children
    .filter((child) => !isBlank(child))
    .map((node) => ({
      node,
      prefix: typeof node !== 'string' && node.name === 'li' ? (nested ? marker().trimStart() : marker()) : '',
    }));
  if (items.length === 0) return;
  b.open(nested ? 1 : 2);
  b.block.prefixWidth = Math.max(0, ...items.map((i) => i.prefix.length));
  for (const { node, prefix } of items) {
    b.open(1, { reserved: Math.max(prefix.length, b.block.prefixWidth) });
    b.block.prefix = prefix;
    walk([node]);
    b.closeItem();
  }
  b.closeList(nested ? 1 : 2);
}

function table(el: Element, b: Builder, walk: (nodes: Node[]) => void) {
  const rows: string[][] = [];
  const rowsOf = (node: Node) => {
    if (typeof node === 'string') return;
    if (['thead', 'tbody', 'tfoot', 'center'].includes(node.name)) node.children.forEach(rowsOf);
    if (node.name !== 'tr') return;
    const cells: string[] = [];
    for (const cell of node.children) {
      if (typeof cell === 'string' || (cell.name !== 'th' && cell.name !== 'td')) continue;
      const parent = b.block;
      b.block = new Block(parent, 1, COLUMN_WIDTH);
      walk(cell.children);
      cells.push(trimChars(b.block.text(), '\n'));
      b.block = parent;
    }
    rows.push(cells);
  };
  el.children.forEach(rowsOf);
  const text = columns(rows);
  if (text) b.block.add(text, 2, 2);
}

/** Cells side by side, each column as wide as its widest line plus the spacing (marked's tables span no cells). */
function columns(rows: string[][]): string {
  const lines = rows.map((cells) => cells.map((cell) => cell.split('\n')));
  const rowTops: number[] = [];
  let top = 0;
  for (const cells of lines) {
    rowTops.push(top);
    top += Math.max(1, ...cells.map((cell) => cell.length));
  }
  const out: string[] = [];
  let offset = 0;
  const width = Math.max(0, ...lines.map((cells) => cells.length));
  for (let c = 0; c < width; c++) {
    let widest = 0;
    lines.forEach((cells, r) => {
      const cell = cells[c];
      const rowTop = rowTops[r] ?? 0;
      if (!cell) {
        out[rowTop] ??= '';
        return;
      }
      cell.forEach((line, i) => {
        out[rowTop + i] = (out[rowTop + i] ?? '').padEnd(offset) + line;
        widest = Math.max(widest, line.length);
      });
    });
    offset += widest + COLUMN_SPACING;
  }
  return out.join('\n');
}

/** The plain text of HTML marked rendered, as html-to-text made it with the article options. */
export async function articleHtmlToText(html: string): Promise<string> {
  const decode = await decoderFor(html);
  const b = new Builder();
  const walk = (nodes: Node[], parent?: Element) => {
    for (const node of nodes) {
      if (typeof node === 'string') {
        b.inline(node);
        continue;
      }
      const { name, children } = node;
      if (name === 'br') b.lineBreak();
      else if (name === 'img' || name === 'wbr') continue;
      else if (name === 'p' || CONTAINERS.has(name) || HEADING_BREAKS[name]) {
        const breaks = name === 'p' ? 2 : (HEADING_BREAKS[name] ?? 1);
        b.open(breaks);
        walk(children, node);
        b.close(name === 'p' || HEADING_BREAKS[name] ? 2 : 1);
      } else if (name === 'pre') {
        b.open(2, { pre: true });
        walk(children, node);
        b.close(2);
      } else if (name === 'hr') {
        b.open(2);
        b.inline('-'.repeat(40));
        b.close(2);
      } else if (name === 'blockquote') {
        b.open(2, { reserved: 2 });
        walk(children, node);
        b.close(2, (text) =>
          trimChars(text, '\n')
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n'),
        );
      } else if (name === 'ul' || name === 'ol') list(node, b, (n) => walk(n, node), parent?.name === 'li');
      else if (name === 'table') table(node, b, (n) => walk(n, node));
      else walk(children, node);
    }
  };
  walk(parse(html, decode));
  let root = b.block;
  while (root.parent) root = root.parent;
  return root.text();
}

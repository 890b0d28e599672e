import type { ChildNode, Document, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/**
 * Lines of plain text under construction. Every block ends the current line; prefixes stack up for
 * list items (the marker on an item's first line, spaces after it) and blockquotes (`> `).
 */
class Lines {
  readonly out: string[] = [];
  private line = '';
  private space = false;
  private prefixes: { first: string; rest: string; used: boolean }[] = [];

  /** `indents`: a line's leading no-break spaces (how mail clients indent) are kept as spaces. */
  constructor(private readonly indents = false) {}

  /** Text as HTML shows it: runs of whitespace are one space, none at the start of a line. */
  text(raw: string) {
    if (this.indents && !this.line) {
      const indent = leadingIndent(raw);
      if (indent > 0) this.raw(' '.repeat(indent));
    }
    const collapsed = raw.replace(/[ \t\r\n\f\u200b]+/g, ' ');
    if (collapsed.startsWith(' ')) this.space = true;
    const words = collapsed.trim();
    if (words) {
      if (this.space && this.line) this.line += ' ';
      this.line += words;
      this.space = collapsed.endsWith(' ') && words !== '';
    }
  }

  /** Text that follows without regard to the spaces around it (a link's address). */
  raw(text: string) {
    this.line += text;
    this.space = false;
  }

  break() {
    if (this.line) {
      // A list item's marker opens its first line only; the lines after it are indented instead.
      const prefix = this.prefixes
        .map((p) => {
          const part = p.used ? p.rest : p.first;
          p.used = true;
          return part;
        })
        .join('');
      this.out.push(prefix + this.line);
    }
    this.line = '';
    this.space = false;
  }

  /** Ends a paragraph: a blank line after it, outside lists and quotes (whose lines stay together). */
  paragraph() {
    this.break();
    if (this.prefixes.length === 0 && this.out.length && this.out.at(-1) !== '') this.out.push('');
  }

  /** A line break; on a line with nothing yet (`<br><br>`, Gmail's `<div><br></div>`) a blank line, outside lists and quotes. */
  lineBreak() {
    if (this.line) return this.break();
    const plain = this.prefixes.every((p) => p.first === '' && p.rest === '');
    if (plain && this.out.length && this.out.at(-1) !== '') this.out.push('');
  }

  /** Preformatted text (`<pre>`): its line breaks and spaces as written. */
  preformatted(raw: string) {
    const [first = '', ...rest] = raw.replace(/\r\n?/g, '\n').split('\n');
    this.raw(first);
    for (const line of rest) {
      this.break();
      this.raw(line);
    }
  }

  /** Runs `inside` with every line it produces prefixed: `first` on the first, `rest` on the others. */
  prefixed(first: string, rest: string, inside: () => void) {
    this.break();
    this.prefixes.push({ first, rest, used: false });
    inside();
    this.break();
    this.prefixes.pop();
  }
}

const COLLAPSED = ' \t\r\n\f';
/**
 * The columns a line's leading no-break spaces indent it by, as a browser shows them: each no-break space
 * is one, a run of ordinary white space after one is one more (before any, at a line's start, none).
 */
function leadingIndent(raw: string): number {
  let i = 0;
  while (i < raw.length && COLLAPSED.includes(raw.charAt(i))) i++;
  let indent = 0;
  let nbsp = false;
  while (i < raw.length) {
    const c = raw.charAt(i);
    if (c === '\u00a0') {
      nbsp = true;
      indent++;
      i++;
    } else if (COLLAPSED.includes(c)) {
      indent++;
      while (i < raw.length && COLLAPSED.includes(raw.charAt(i))) i++;
    } else break;
  }
  return nbsp ? indent : 0;
}

const BLOCKS = new Set([
  'p',
  'div',
  'pre',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'article',
  'aside',
  'footer',
  'form',
  'header',
  'main',
  'nav',
  'section',
]);
const SKIPPED = new Set(['img', 'head']);
const HR = '-'.repeat(20);

const isBlankText = (node: ChildNode) => node.type === 'text' && /^\s*$/.test(node.data);

/** Words of the link text, joined as the previous implementation compared them (without spaces). */
const wordsOf = (nodes: ChildNode[]): string =>
  nodes
    .map((n) =>
      n.type === 'text'
        ? n.data.replace(/[ \t\r\n\f\u200b]+/g, '')
        : n.type === 'tag' && !SKIPPED.has(n.name)
          ? wordsOf(n.children)
          : '',
    )
    .join('');

function list(el: Element, lines: Lines, walk: (nodes: ChildNode[]) => void) {
  let n = Number(el.attribs.start ?? '1');
  const items = el.children
    .filter((child) => !isBlankText(child))
    .map((node) => ({
      node,
      prefix: node.type === 'tag' && node.name === 'li' ? (el.name === 'ol' ? `${n++}. ` : '- ') : '',
    }));
  const width = Math.max(0, ...items.map((i) => i.prefix.length));
  for (const { node, prefix } of items) lines.prefixed(prefix.padEnd(width), ' '.repeat(width), () => walk([node]));
}

function anchor(el: Element, lines: Lines, walk: (nodes: ChildNode[]) => void) {
  const raw = el.attribs.href ?? '';
  const href = raw.startsWith('#') ? '' : raw.replace(/^mailto:/, '');
  walk(el.children);
  if (!href) return;
  const text = wordsOf(el.children);
  if (href === text) return;
  if (text) lines.raw(` (${href})`);
  else lines.text(href);
}

/** The plain-text part of an email: tags stripped, links as `text (url)`, one line per block. */
export const htmlToText = (html: string): string => documentToText(parseDocument(html));

/** Blocks a reader sees as paragraphs of their own (a blank line after each, with `paragraphs`). */
const PARAGRAPHS = new Set(['p', 'table', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * The text of a parsed document (inbound mail prunes quoted history from the tree first). With
 * `paragraphs`, a blank line follows each paragraph-like block: inbound mail is read by paragraphs
 * (a gateway's warning, a closing notice under its heading), and an HTML-only mail's `<p>`s are those.
 */
export function documentToText(document: Document, options: { paragraphs?: boolean } = {}): string {
  const lines = new Lines(options.paragraphs);
  let pre = 0;
  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        if (pre > 0) lines.preformatted(node.data);
        else lines.text(node.data);
      }
      if (node.type !== 'tag' || SKIPPED.has(node.name)) continue;
      const name = node.name;
      // Read as mail is (paragraphs): a <pre>'s lines and spaces as written, a break on an empty line a blank line.
      if (name === 'br' && options.paragraphs) lines.lineBreak();
      else if (name === 'br') lines.break();
      else if (name === 'pre' && options.paragraphs) {
        pre++;
        lines.prefixed('', '', () => walk(node.children));
        pre--;
        lines.paragraph();
      } else if (name === 'hr') lines.prefixed('', '', () => lines.text(HR));
      else if (name === 'a') anchor(node, lines, walk);
      else if (name === 'ul' || name === 'ol') list(node, lines, walk);
      else if (name === 'blockquote') lines.prefixed('> ', '> ', () => walk(node.children));
      else if (BLOCKS.has(name)) {
        lines.prefixed('', '', () => walk(node.children));
        if (options.paragraphs && PARAGRAPHS.has(name)) lines.paragraph();
      } else walk(node.children);
    }
  };
  const body = findBody(document.children);
  walk(body ? body.children : document.children);
  lines.break();
  const out = lines.out.map((line) => line.trimEnd());
  if (!options.paragraphs) return out.filter((line) => line.trim() !== '').join('\n');
  // One blank line between paragraphs, none around them.
  return out
    .filter((line, i) => line.trim() !== '' || (i > 0 && out[i - 1]?.trim() !== ''))
    .join('\n')
    .trim();
}

/** Only the body is text when there is one (what comes before it, comments included, is not). */
function findBody(nodes: ChildNode[]): Element | undefined {
  for (const node of nodes) {
    if (node.type !== 'tag') continue;
    if (node.name === 'body') return node;
    const found = findBody(node.children);
    if (found) return found;
  }
  return undefined;
}

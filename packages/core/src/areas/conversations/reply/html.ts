import { type ChildNode, type Element, type ParentNode, Text } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { documentToText } from '../../templates/text.js';
import { fieldRole } from './markers.js';

/**
 * Where clients put the quoted mail in HTML: Gmail's `gmail_quote`, Yahoo's `yahoo_quoted`, Outlook's
 * `divRplyFwdMsg` (web) and `appendonsend`, Zoho's `zmail_extra`, Proton's `protonmail_quote`.
 * Apple Mail's and Thunderbird's `<blockquote type="cite">` become `>` lines in the text, where an
 * answer written between quotes is kept.
 */
const QUOTE_CLASSES = ['gmail_quote', 'gmail_quote_container', 'yahoo_quoted', 'zmail_extra', 'protonmail_quote'];
const QUOTE_IDS = [
  'divrplyfwdmsg',
  'x_divrplyfwdmsg',
  'appendonsend',
  'olk_src_body_section',
  'mail-editor-reference-message-container',
];

const classesOf = (el: Element) => (el.attribs.class ?? '').toLowerCase().split(/\s+/);

/**
 * The nodes under `nodes` in document order, walked with a stack of its own: a mail nested 100,000
 * elements deep must not overflow the call stack.
 */
function* inOrder(nodes: readonly ChildNode[]): Generator<ChildNode> {
  const stack: ChildNode[] = [...nodes].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    yield node;
    if ('children' in node)
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ChildNode);
  }
}

/** The start of an element's text (up to `limit` characters). */
function textOf(node: ChildNode, limit = 200): string {
  let out = '';
  for (const n of inOrder([node])) {
    if (out.length >= limit) break;
    if (n.type === 'text') out += n.data;
  }
  return out.trim();
}

/** Outlook desktop's separator: a div with a solid top border whose text starts with a From field. */
function isOutlookSeparator(el: Element): boolean {
  const style = (el.attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('border-top:solid') && fieldRole(textOf(el)) === 'from';
}

function isQuoteContainer(el: Element): boolean {
  const classes = classesOf(el);
  if (QUOTE_CLASSES.some((c) => classes.includes(c) || classes.includes(`x_${c}`))) return true;
  if (QUOTE_IDS.includes((el.attribs.id ?? '').toLowerCase())) return true;
  return el.name === 'div' && isOutlookSeparator(el);
}

/** The first quote container in document order. */
function findQuote(nodes: readonly ChildNode[]): Element | undefined {
  for (const node of inOrder(nodes)) if (node.type === 'tag' && isQuoteContainer(node)) return node;
  return undefined;
}

/** Removes the node and everything after it in document order (the later siblings of its ancestors too). */
function cutFrom(node: ChildNode) {
  let current: ChildNode | ParentNode = node;
  let keepCurrent = false;
  while (current.parent) {
    const siblings: ChildNode[] = current.parent.children;
    const at = siblings.indexOf(current as ChildNode);
    current.parent.children = siblings.slice(0, keepCurrent ? at + 1 : at);
    keepCurrent = true;
    current = current.parent;
  }
}

/** Deeper than this, an element's content is kept as its text alone (the text reader recurses by depth). */
const MAX_DEPTH = 200;

/**
 * How much HTML is read: its first 300,000 characters. htmlparser2 takes time growing with the square
 * of the nesting depth (80,000 nested elements: ~0.9 s), and the reply and its text live at the top;
 * the whole HTML is kept as the original.
 */
const READ_HTML_CHARS = 300_000;

/** Parses mail HTML (its head) and flattens what lies deeper than MAX_DEPTH into plain text nodes. */
function parseMailHtml(html: string) {
  const document = parseDocument(html.slice(0, READ_HTML_CHARS));
  const stack: { node: ChildNode; depth: number }[] = document.children.map((node) => ({ node, depth: 1 }));
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { node, depth } = entry;
    if (!('children' in node)) continue;
    if (depth >= MAX_DEPTH) {
      let text = '';
      for (const n of inOrder(node.children)) if (n.type === 'text') text += `${n.data} `;
      const flat = new Text(text);
      flat.parent = node;
      node.children = [flat];
      continue;
    }
    for (const child of node.children) stack.push({ node: child, depth: depth + 1 });
  }
  return document;
}

/** The whole text of mail HTML (the original kept beside the reply). */
export const mailHtmlText = (html: string) => documentToText(parseMailHtml(html), { paragraphs: true });

/** The text of an HTML-only mail, with the quoted mail cut where its client's markup says it starts. */
export function htmlReplyText(html: string): { text: string; found: boolean } {
  const document = parseMailHtml(html);
  const quote = findQuote(document.children);
  if (quote) cutFrom(quote);
  return { text: documentToText(document, { paragraphs: true }), found: quote !== undefined };
}

import type { ChildNode, Element, ParentNode } from 'domhandler';
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

function textOf(node: ChildNode, limit = 200): string {
  let out = '';
  const walk = (n: ChildNode) => {
    if (out.length >= limit) return;
    if (n.type === 'text') out += n.data;
    else if ('children' in n) for (const c of n.children) walk(c);
  };
  walk(node);
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
  for (const node of nodes) {
    if (node.type !== 'tag') continue;
    if (isQuoteContainer(node)) return node;
    const inner = findQuote(node.children);
    if (inner) return inner;
  }
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

/** The text of an HTML-only mail, with the quoted mail cut where its client's markup says it starts. */
export function htmlReplyText(html: string): { text: string; found: boolean } {
  const document = parseDocument(html);
  const quote = findQuote(document.children);
  if (quote) cutFrom(quote);
  return { text: documentToText(document), found: quote !== undefined };
}

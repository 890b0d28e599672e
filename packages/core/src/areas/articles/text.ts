import { Marked, type MarkedExtension } from 'marked';
import { boundMarkdown } from '../../kernel/markdown-bounds.js';
import { trimChars } from '../../kernel/text.js';
import { escapeHtml } from '../templates/escape.js';
import { safeLinks } from '../templates/safe-links.js';
import { articleHtmlToText } from './plain-text.js';

const MAX_SLUG = 80;

/** Lowercase ASCII with dashes: accents folded, everything else a separator. */
export function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  const slug = trimChars(trimChars(words, '-').slice(0, MAX_SLUG), '-', 'end');
  return slug || 'article';
}

/**
 * bodyHtml is safe to embed in a help center page: raw HTML inside the Markdown is shown as text, and
 * a link or image with any other target (`javascript:`, `data:`, `vbscript:`) keeps only its text.
 */
const safeRenderer = {
  html: ({ text }) => escapeHtml(text),
  ...safeLinks,
} satisfies MarkedExtension['renderer'];

const markdown = new Marked({ gfm: true, hooks: { preprocess: boundMarkdown }, renderer: safeRenderer });

/** For a page whose h1 is the article's title: the body's headings one level down (`#` is an h2). */
const underTitle = new Marked({
  gfm: true,
  hooks: { preprocess: boundMarkdown },
  renderer: {
    ...safeRenderer,
    heading({ tokens, depth }) {
      const level = Math.min(depth + 1, 6);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
  },
});

export const markdownToHtml = (body: string, options: { underTitle?: boolean } = {}) =>
  (options.underTitle ? underTitle : markdown).parse(body, { async: false });

/** Plain text of a Markdown body, one line per block: what search indexes and excerpts are made of. */
export const markdownToText = async (body: string) => (await articleHtmlToText(markdownToHtml(body))).trim();

const EXCERPT_LENGTH = 200;

/** The first words of the body, cut at a word boundary; null for an empty body. */
export async function deriveExcerpt(body: string): Promise<string | null> {
  const text = (await markdownToText(body)).replace(/\s+/g, ' ').trim();
  if (!text) return null;
  if (text.length <= EXCERPT_LENGTH) return text;
  const cut = text.slice(0, EXCERPT_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${trimChars(space > EXCERPT_LENGTH / 2 ? cut.slice(0, space) : cut, ' \t\n\r\f\v.,;:!?-', 'end')}…`;
}

const CHUNK_SIZE = 1200;

/**
 * Splits plain text into chunks of about CHUNK_SIZE characters along paragraph, then sentence, then
 * word boundaries, so each embedding covers one coherent passage.
 */
export function chunkText(text: string, size = CHUNK_SIZE): string[] {
  const pieces: string[] = [];
  const split = (part: string, separators: RegExp[]) => {
    if (part.length <= size || separators.length === 0) {
      for (let i = 0; i < part.length; i += size) pieces.push(part.slice(i, i + size));
      return;
    }
    for (const sub of part.split(separators[0] ?? '\n')) if (sub.trim()) split(sub.trim(), separators.slice(1));
  };
  split(text.trim(), [/\n\s*\n/, /(?<=[.!?])\s+/, /\s+/]);
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current && current.length + piece.length + 1 > size) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n${piece}` : piece;
  }
  if (current) chunks.push(current);
  return chunks;
}

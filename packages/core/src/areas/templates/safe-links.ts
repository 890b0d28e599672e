import type { MarkedExtension } from 'marked';
import { linkable } from '../../kernel/links/linkable.js';
import { escapeHtml } from './escape.js';

const title = (text: string | null | undefined) => (text ? ` title="${escapeHtml(text)}"` : '');

/**
 * Links and images of Markdown written by users (one-off mail, replies, articles): a target that is not
 * http(s), mailto or relative keeps only its text, and a kept target is written fully escaped, so the
 * reader reads exactly the text `linkable` judged. Marked's own renderer leaves character references
 * in an href as they are (`java&#x73;cript:` passed the check as a relative path, then decoded to
 * `javascript:` in the browser).
 */
export const safeLinks = {
  link({ href, title: hint, tokens }) {
    const text = this.parser.parseInline(tokens);
    return linkable(href) ? `<a href="${escapeHtml(href)}"${title(hint)}>${text}</a>` : text;
  },
  image: ({ href, title: hint, text }: { href: string; title?: string | null; text: string }) =>
    linkable(href) ? `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${title(hint)}>` : escapeHtml(text),
} satisfies MarkedExtension['renderer'];

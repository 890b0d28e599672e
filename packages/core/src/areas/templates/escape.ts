/** Text as HTML shows it literally; inside Markdown, raw HTML becomes visible text instead of markup. */
export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

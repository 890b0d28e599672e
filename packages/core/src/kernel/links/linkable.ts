const LINKABLE = new Set(['http:', 'https:', 'mailto:']);

/**
 * A link target a page or a mail may carry: http(s), mailto or relative (never `javascript:`, `data:`
 * or `vbscript:`). Judged on the exact text the reader will read (the attribute is written escaped, so
 * `&#106;avascript:` stays text and never decodes to a scheme) by the URL parser browsers use, which
 * also drops the tabs and newlines a scheme may hide.
 */
export function linkable(href: string): boolean {
  try {
    return LINKABLE.has(new URL(href, 'https://relative.invalid/').protocol);
  } catch {
    return false;
  }
}

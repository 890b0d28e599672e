/**
 * Markdown as people write it, made safe for marked's time and stack. Two shapes of input make marked
 * misbehave, and text from outside (article bodies, custom mail) may hold either:
 * - emphasis delimiters (`*`, `_`) by the thousand in one paragraph: its delimiter matching is
 *   quadratic in their number (100,000 characters of `__a` took 16 s);
 * - containers nested thousands deep on one line (`>>>>…`, `- - - …`, `1. 1. …`): one recursion per
 *   level, then a RangeError (a 500).
 * Past MAX_DELIMITERS in a paragraph its delimiters are escaped (shown as typed, no emphasis), past
 * MAX_NESTING the next container marker is escaped (the rest of the line is text). Fenced code is left
 * alone. Text within the bounds is returned unchanged, so ordinary Markdown renders as before.
 */

/** Emphasis delimiters one paragraph may hold: ~10 ms of matching at this count. */
export const MAX_DELIMITERS = 1000;
/** Containers (quotes, list items) one line may open. */
export const MAX_NESTING = 16;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const isBlank = (line: string) => line.trim() === '';
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';

/** The line with its container marker past MAX_NESTING escaped; one pass over its prefix. */
function boundNesting(line: string): string {
  let i = 0;
  let depth = 0;
  for (;;) {
    let spaces = 0;
    while (spaces < 4 && line[i + spaces] === ' ') spaces++;
    if (spaces === 4) return line;
    const at = i + spaces;
    const ch = line[at];
    let end = -1;
    if (ch === '>') end = at + 1;
    else if ((ch === '-' || ch === '*' || ch === '+') && (line[at + 1] === ' ' || line[at + 1] === '\t')) end = at + 1;
    else {
      let digits = at;
      while (digits - at < 9 && isDigit(line[digits])) digits++;
      if (
        digits > at &&
        (line[digits] === '.' || line[digits] === ')') &&
        (line[digits + 1] === ' ' || line[digits + 1] === '\t')
      )
        end = digits + 1;
    }
    if (end < 0) return line;
    depth++;
    if (depth > MAX_NESTING) return `${line.slice(0, at)}\\${line.slice(at)}`;
    i = end;
  }
}

const countDelimiters = (lines: string[]) => {
  let n = 0;
  for (const line of lines) for (const ch of line) if (ch === '*' || ch === '_') n++;
  return n;
};

const escapeDelimiters = (line: string) => line.replace(/[*_]/g, (ch) => `\\${ch}`);

/** `source` within marked's bounds (see above); unchanged when it already is. */
export function boundMarkdown(source: string): string {
  const lines = source.split('\n');
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  let paragraph: string[] = [];
  const flush = () => {
    out.push(...(countDelimiters(paragraph) > MAX_DELIMITERS ? paragraph.map(escapeDelimiters) : paragraph));
    paragraph = [];
  };
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      out.push(line);
      if (
        marker &&
        marker[0] === fence.char &&
        marker.length >= fence.length &&
        isBlank(line.slice(line.indexOf(marker) + marker.length))
      )
        fence = undefined;
      continue;
    }
    if (marker) {
      flush();
      fence = { char: marker[0] as string, length: marker.length };
      out.push(line);
      continue;
    }
    if (isBlank(line)) {
      flush();
      out.push(line);
      continue;
    }
    paragraph.push(boundNesting(line));
  }
  flush();
  return out.join('\n');
}

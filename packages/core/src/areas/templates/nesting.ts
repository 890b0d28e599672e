/**
 * How deep blocks (`{{#if}}`, `{{#each}}`, partial blocks, inline partials) and sub-expressions
 * (`(a (b c))`) may nest in one source. Handlebars parses and compiles recursively: a few thousand
 * levels take seconds and then overflow the stack, so deeper sources are refused before parsing.
 */
export const MAX_NESTING = 100;

export interface TooDeep {
  line: number;
  column: number;
}

/** Line and 1-based column of an offset. */
function position(source: string, offset: number): TooDeep {
  let line = 1;
  let start = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * One linear pass over the mustaches of a source (comments and escaped `\{{` skipped): the position
 * of the first block or sub-expression that opens past `MAX_NESTING` levels, or undefined.
 */
export function tooDeep(source: string): TooDeep | undefined {
  let blocks = 0;
  for (let i = source.indexOf('{{'); i !== -1; i = source.indexOf('{{', i)) {
    if (source[i - 1] === '\\' && source[i - 2] !== '\\') {
      i += 2;
      continue;
    }
    let j = i + 2;
    while (source[j] === '{') j++;
    if (source[j] === '~') j++;
    if (source.startsWith('!--', j)) {
      const end = source.indexOf('--', j + 3);
      const close = end === -1 ? -1 : source.indexOf('}}', end);
      if (close === -1) return undefined; // unterminated: the parser reports it
      i = close + 2;
      continue;
    }
    const close = source.indexOf('}}', j);
    if (close === -1) return undefined;
    const tag = source.slice(j, close);
    if (tag.startsWith('!')) {
      i = close + 2;
      continue;
    }
    if (tag.startsWith('#') || (tag.startsWith('^') && tag.slice(1).replace('~', '').trim() !== '')) {
      if (++blocks > MAX_NESTING) return position(source, i);
    } else if (tag.startsWith('/')) {
      blocks = Math.max(0, blocks - 1);
    }
    // Sub-expressions: parentheses outside string literals.
    let parens = 0;
    let quote = '';
    for (let k = 0; k < tag.length; k++) {
      const c = tag[k] ?? '';
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(') {
        if (++parens > MAX_NESTING) return position(source, j + k);
      } else if (c === ')') parens--;
    }
    i = close + 2;
  }
  return undefined;
}

import Handlebars from 'handlebars';
import { problem } from '../../kernel/errors/problem.js';
import { countPieces } from './budget.js';
import { sendGridHelpers } from './helpers.js';
import { parseRef, qualifiedKey, type Scope } from './keys.js';
import { MAX_NESTING, tooDeep } from './nesting.js';

type Node = hbs.AST.Node;
type Program = hbs.AST.Program;
type Expression = hbs.AST.Expression;
type PathExpression = hbs.AST.PathExpression;

/**
 * A private environment: nothing registered on the global Handlebars instance leaks into tenant
 * renders. It holds Handlebars' built-ins and SendGrid's documented helpers, and nothing else.
 */
export const handlebars = Handlebars.create();
handlebars.registerHelper(sendGridHelpers);
countPieces(handlebars);

/**
 * Helpers a source may call; any other name called with arguments is reported, never rendered.
 * helperMissing and blockHelperMissing are Handlebars' fallbacks: called by name they only throw.
 */
const KNOWN_HELPERS = new Set(
  Object.keys(handlebars.helpers).filter((name) => name !== 'helperMissing' && name !== 'blockHelperMissing'),
);

/** Parser tokens as a template author knows them, for our own parse error messages. */
const TOKEN_TEXT: Record<string, string> = {
  EOF: 'the end of the source (a tag or block is left open)',
  CLOSE: '}}',
  CLOSE_UNESCAPED: '}}}',
  CLOSE_RAW_BLOCK: '}}}}',
  CLOSE_SEXPR: ')',
  OPEN_SEXPR: '(',
  INVALID: 'a character that is not allowed there',
  EQUALS: '=',
  OPEN_ENDBLOCK: 'a closing {{/...}}',
  INVERSE: '{{else}}',
  OPEN_INVERSE_CHAIN: '{{else ...}}',
  CONTENT: 'text',
};

/** Our own wording of a parser failure: the parser's message is never passed on. */
function parseReason(message: string): string {
  const mismatch = /^(\S+) doesn't match (\S+)/.exec(message);
  if (mismatch) return `{{/${mismatch[2]}}} does not close {{#${mismatch[1]}}}`;
  const got = /got '([A-Z_]+)'/.exec(message);
  if (got) return `unexpected ${TOKEN_TEXT[got[1] ?? ''] ?? 'syntax'}`;
  if (/Invalid path/.test(message)) return 'a path mixes this/../ with names in a way Handlebars does not allow';
  return 'the syntax is not valid here';
}

/**
 * Parses a .hbs source; a syntax error is a 422 carrying the parser's 1-based line and column and a
 * reason in our words. Nesting beyond MAX_NESTING is refused before the (recursive) parser runs.
 */
export function parseSource(source: string, what = 'The file'): Program {
  const deep = tooDeep(source);
  if (deep) {
    const reason = `blocks or sub-expressions nest deeper than ${MAX_NESTING} levels`;
    throw problem('template.invalid', { what, ...deep, reason, nestingLimit: MAX_NESTING });
  }
  try {
    return handlebars.parse(source) as unknown as Program;
  } catch (err) {
    const e = err as Error & { lineNumber?: number; column?: number };
    // Grammar errors carry no position; the shared lexer still holds the offending token's (parsing is synchronous).
    const loc = (
      handlebars as unknown as { Parser: { lexer: { yylloc?: { first_line: number; first_column: number } } } }
    ).Parser.lexer.yylloc;
    const line = e.lineNumber ?? loc?.first_line ?? 1;
    const column = (e.column ?? loc?.first_column ?? 0) + 1;
    const reason = parseReason(String(e.message));
    throw problem('template.invalid', { what, line, column, reason });
  }
}

/** `{{!-- subject: ... --}}` and `{{!-- layout: key --}}` directives, from the file's comments. */
export function readDirectives(ast: Program): { subject?: string; layout?: string } {
  const out: { subject?: string; layout?: string } = {};
  for (const node of ast.body) {
    if (node.type !== 'CommentStatement') continue;
    const comment = (node as hbs.AST.CommentStatement).value.trim();
    const m = /^(subject|layout)\s*:/i.exec(comment);
    if (m?.[1]) out[m[1].toLowerCase() as 'subject' | 'layout'] ??= comment.slice(m[0].length).trim();
  }
  return out;
}

/** Visits every node of an AST, depth first. */
function walk(node: Node | undefined | null, visit: (node: Node) => void): void {
  if (!node || typeof node !== 'object') return;
  visit(node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const v of value) walk(v as Node, visit);
    else if (value && typeof value === 'object' && 'type' in value) walk(value as Node, visit);
  }
}

/** `{{#*inline "name"}}`: the name an inline partial definition registers, if it is a literal. */
function inlineName(node: Node): string | undefined {
  if (node.type !== 'DecoratorBlock') return undefined;
  const block = node as hbs.AST.BlockStatement;
  const name = block.params[0];
  return (block.path as PathExpression).original === 'inline' && name?.type === 'StringLiteral'
    ? (name as hbs.AST.StringLiteral).value
    : undefined;
}

/** Names of the partials a source defines inline (`{{#*inline "content"}}`). */
function inlinePartials(ast: Program): string[] {
  const names = new Set<string>();
  walk(ast, (node) => {
    const name = inlineName(node);
    if (name !== undefined) names.add(name);
  });
  return [...names];
}

/**
 * Rewrites every static partial reference to its qualified key (`footer` in an account item is
 * `@account/footer`), so one render can mix project and account partials without name clashes.
 * Partials the same source defines inline keep their name: Handlebars resolves them first.
 * Returns the qualified keys referenced.
 */
export function qualifyPartials(ast: Program, scope: Scope): string[] {
  const inline = new Set(inlinePartials(ast));
  const found = new Set<string>();
  walk(ast, (node) => {
    if (node.type !== 'PartialStatement' && node.type !== 'PartialBlockStatement') return;
    const p = node as hbs.AST.PartialStatement;
    if (p.name.type !== 'PathExpression') return;
    const name = p.name as PathExpression;
    if (inline.has(name.original)) return;
    const ref = parseRef(name.original, scope);
    if (!ref) return;
    const key = qualifiedKey(ref);
    found.add(key);
    Object.assign(name, { original: key, parts: [key], data: false, depth: 0 });
  });
  return [...found];
}

/** A helper the environment does not have, where the source calls it (1-based line). */
export interface HelperUse {
  name: string;
  line: number;
}

/** Helpers called (with arguments, as a block with arguments, or as a sub-expression) that do not exist. */
export function unknownHelpers(ast: Program): HelperUse[] {
  const found: HelperUse[] = [];
  const seen = new Set<string>();
  const note = (path: Expression, line: number) => {
    if (path.type !== 'PathExpression' || (path as PathExpression).data) return;
    const name = (path as PathExpression).original;
    if (KNOWN_HELPERS.has(name) || seen.has(`${name}:${line}`)) return;
    seen.add(`${name}:${line}`);
    found.push({ name, line });
  };
  walk(ast, (node) => {
    const line = node.loc?.start.line ?? 1;
    if (node.type === 'SubExpression') note((node as hbs.AST.SubExpression).path, line);
    else if (node.type === 'MustacheStatement' || node.type === 'BlockStatement') {
      const call = node as hbs.AST.MustacheStatement;
      // `{{foo}}` and `{{#items}}` read a variable; arguments make it a helper call (`{{usd total}}`).
      if (call.params.length > 0 || (call.hash?.pairs.length ?? 0) > 0) note(call.path, line);
    } else if ((node.type === 'Decorator' || node.type === 'DecoratorBlock') && inlineName(node) === undefined) {
      const path = (node as hbs.AST.BlockStatement).path;
      if (path.type === 'PathExpression') found.push({ name: `*${(path as PathExpression).original}`, line });
    }
  });
  return found;
}

const CONTEXT_HELPERS = new Set(['each', 'with']);

/**
 * Where a source calls a partial: the context it passes (dotted prefix) and its hash arguments,
 * each mapped to the caller's path it passes (null for a literal or a helper result).
 */
export interface PartialCall {
  name: string;
  prefix: string;
  hash: Record<string, string | null>;
}

/** What a source (or one inline partial in it) reads, and the partials it calls. */
export interface Reads {
  variables: string[];
  calls: PartialCall[];
}

/** A list index is not a variable name: `{{items.[0].name}}` reads `items.name`, as `#each items` would. */
const named = (parts: string[]) => parts.filter((p) => !/^\d+$/.test(p));

/**
 * Variables a source reads, from its AST: dotted paths kept (`order.total`), helper names and
 * `@data` left out; inside `#each items` / `#with user` paths are reported under their context
 * (`items.name`). Partials are analysed separately; `calls` says how to merge their variables.
 * Inline partials (`{{#*inline "x"}}`) are analysed as partials of their own, in `inlines`.
 * Run on an AST whose partial names are qualified.
 */
export function detectVariables(ast: Program): Reads & { inlines: Record<string, Reads> } {
  // Null-prototype maps: names come from the template (`{{#*inline "constructor"}}`, `{{> x __proto__=y}}`).
  const inlines: Record<string, Reads> = Object.create(null);
  // One entry per context level: the dotted prefix that `this` stands for, and block param names.
  type Frame = { prefix: string; params: Map<string, string> };
  /** The template's own context: the bottom of every stack. */
  const ROOT_FRAME: Frame = { prefix: '', params: new Map() };
  const join = (a: string, b: string) => (a && b ? `${a}.${b}` : a || b);

  const resolve = (path: PathExpression, stack: Frame[]): string | undefined => {
    const parts = named(path.parts);
    if (path.data) {
      // `@root.user.name` reads the root context; every other `@` name is runtime data.
      return parts[0] === 'root' && parts.length > 1 ? parts.slice(1).join('.') : undefined;
    }
    const frame = stack[Math.max(0, stack.length - 1 - path.depth)] ?? ROOT_FRAME;
    const [head, ...rest] = parts;
    if (head === undefined) return frame.prefix || undefined;
    for (let i = stack.length - 1 - path.depth; i >= 0 && path.depth === 0; i--) {
      const bound = stack[i]?.params.get(head);
      if (bound !== undefined) return join(bound, rest.join('.')) || undefined;
    }
    return join(frame.prefix, parts.join('.'));
  };

  const analyse = (root: Program | undefined | null): Reads => {
    const vars = new Set<string>();
    const calls: PartialCall[] = [];

    const expr = (e: Expression | undefined, stack: Frame[]) => {
      if (!e) return;
      if (e.type === 'PathExpression') {
        const name = resolve(e as PathExpression, stack);
        if (name) vars.add(name);
      } else if (e.type === 'SubExpression') {
        call(e as hbs.AST.SubExpression, stack);
      }
    };

    const call = (node: { path: Expression; params: Expression[]; hash?: hbs.AST.Hash }, stack: Frame[]) => {
      const isHelperCall = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
      if (!isHelperCall && node.path.type !== 'SubExpression') expr(node.path, stack);
      for (const p of node.params) expr(p, stack);
      for (const p of node.hash?.pairs ?? []) expr(p.value, stack);
    };

    const program = (p: Program | undefined | null, stack: Frame[]) => {
      for (const n of p?.body ?? []) statement(n, stack);
    };

    const statement = (node: Node, stack: Frame[]) => {
      switch (node.type) {
        case 'MustacheStatement':
          call(node as hbs.AST.MustacheStatement, stack);
          break;
        case 'BlockStatement': {
          const block = node as hbs.AST.BlockStatement;
          const helper = block.path.type === 'PathExpression' ? (block.path as PathExpression).original : '';
          call(block, stack);
          // `{{#each items}}` and `{{#with user}}` (and a bare section `{{#items}}`) change the context.
          const contextExpr = CONTEXT_HELPERS.has(helper)
            ? block.params[0]
            : block.params.length === 0
              ? block.path
              : undefined;
          const contextName =
            contextExpr?.type === 'PathExpression' ? resolve(contextExpr as PathExpression, stack) : undefined;
          const params = new Map<string, string>();
          if (contextName !== undefined && block.program.blockParams?.[0])
            params.set(block.program.blockParams[0], contextName);
          const inner: Frame = {
            prefix:
              contextName !== undefined && !block.program.blockParams?.length
                ? contextName
                : (stack.at(-1) ?? ROOT_FRAME).prefix,
            params,
          };
          program(block.program, contextName !== undefined ? [...stack, inner] : stack);
          program(block.inverse, stack);
          break;
        }
        case 'DecoratorBlock': {
          // An inline partial reads its caller's context, like a partial file: analysed on its own.
          const name = inlineName(node);
          if (name !== undefined) inlines[name] = analyse((node as hbs.AST.BlockStatement).program);
          break;
        }
        case 'PartialStatement':
        case 'PartialBlockStatement': {
          const p = node as hbs.AST.PartialStatement & { program?: Program };
          for (const e of p.params) expr(e, stack);
          for (const pair of p.hash?.pairs ?? []) expr(pair.value, stack);
          if (p.name.type === 'PathExpression') {
            const context =
              p.params[0]?.type === 'PathExpression' ? resolve(p.params[0] as PathExpression, stack) : undefined;
            const hash: Record<string, string | null> = Object.create(null);
            for (const pair of p.hash?.pairs ?? []) {
              hash[pair.key] =
                pair.value.type === 'PathExpression' ? (resolve(pair.value as PathExpression, stack) ?? null) : null;
            }
            calls.push({
              name: (p.name as PathExpression).original,
              prefix: context ?? (stack.at(-1) ?? ROOT_FRAME).prefix,
              hash,
            });
          }
          program(p.program, stack);
          break;
        }
        default:
          break;
      }
    };

    program(root, [ROOT_FRAME]);
    return { variables: [...vars], calls };
  };

  return { ...analyse(ast), inlines };
}

/** Whether a layout places the body unescaped with `{{{body}}}`. */
export function placesBody(ast: Program): 'raw' | 'escaped' | 'missing' {
  let found: 'raw' | 'escaped' | 'missing' = 'missing';
  walk(ast, (node) => {
    if (node.type !== 'MustacheStatement') return;
    const m = node as hbs.AST.MustacheStatement;
    if (m.path.type === 'PathExpression' && (m.path as PathExpression).original === 'body' && m.params.length === 0) {
      if (!m.escaped) found = 'raw';
      else if (found === 'missing') found = 'escaped';
    }
  });
  return found;
}

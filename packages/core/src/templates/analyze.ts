import Handlebars from 'handlebars';
import { errors } from '../http/errors.js';
import { qualifiedKey, parseRef, type Scope } from './keys.js';
import { problem } from '../errors/problem.js';

type Node = hbs.AST.Node;
type Program = hbs.AST.Program;
type Expression = hbs.AST.Expression;
type PathExpression = hbs.AST.PathExpression;

/** A private environment: nothing registered on the global Handlebars instance leaks into tenant renders. */
export const handlebars = Handlebars.create();

/** Parses a .hbs source; a syntax error is a 422 carrying the parser's 1-based line and column. */
export function parseSource(source: string, what = 'The file'): Program {
  try {
    return handlebars.parse(source) as unknown as Program;
  } catch (err) {
    const e = err as Error & { lineNumber?: number; column?: number };
    // Grammar errors carry no position; the shared lexer still holds the offending token's (parsing is synchronous).
    const loc = (handlebars as unknown as { Parser: { lexer: { yylloc?: { first_line: number; first_column: number } } } })
      .Parser.lexer.yylloc;
    const line = e.lineNumber ?? loc?.first_line ?? 1;
    const column = (e.column ?? loc?.first_column ?? 0) + 1;
    const reason = e.message.split('\n').filter((l) => !/^-*\^$/.test(l.trim())).join(' ').replace(/\s+/g, ' ').trim();
    throw problem('template.invalid', { what, line, column, reason });
  }
}

/** `{{!-- subject: ... --}}` and `{{!-- layout: key --}}` directives, from the file's comments. */
export function readDirectives(ast: Program): { subject?: string; layout?: string } {
  const out: { subject?: string; layout?: string } = {};
  for (const node of ast.body) {
    if (node.type !== 'CommentStatement') continue;
    const m = /^\s*(subject|layout)\s*:\s*([\s\S]*?)\s*$/i.exec((node as hbs.AST.CommentStatement).value);
    if (m) out[m[1]!.toLowerCase() as 'subject' | 'layout'] ??= m[2]!;
  }
  return out;
}

/**
 * Rewrites every static partial reference to its qualified key (`footer` in an account item is
 * `@account/footer`), so one render can mix project and account partials without name clashes.
 * Returns the qualified keys referenced.
 */
export function qualifyPartials(ast: Program, scope: Scope): string[] {
  const found = new Set<string>();
  const visit = (node: Node | undefined | null): void => {
    if (!node || typeof node !== 'object') return;
    if (node.type === 'PartialStatement' || node.type === 'PartialBlockStatement') {
      const p = node as hbs.AST.PartialStatement;
      if (p.name.type === 'PathExpression') {
        const name = p.name as PathExpression;
        const ref = parseRef(name.original, scope);
        if (ref) {
          const key = qualifiedKey(ref);
          found.add(key);
          Object.assign(name, { original: key, parts: [key], data: false, depth: 0 });
        }
      }
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((v) => visit(v as Node));
      else if (value && typeof value === 'object' && 'type' in value) visit(value as Node);
    }
  };
  visit(ast);
  return [...found];
}

const CONTEXT_HELPERS = new Set(['each', 'with']);

/** Where a source calls a partial: the context it passes (dotted prefix) and the hash keys it sets. */
export interface PartialCall {
  name: string;
  prefix: string;
  hashKeys: string[];
}

/**
 * Variables a source reads, from its AST: dotted paths kept (`order.total`), helper names and
 * `@data` left out; inside `#each items` / `#with user` paths are reported under their context
 * (`items.name`). Partials are analysed separately; `calls` says how to merge their variables.
 * Run on an AST whose partial names are qualified.
 */
export function detectVariables(ast: Program): { variables: string[]; calls: PartialCall[] } {
  const vars = new Set<string>();
  const calls: PartialCall[] = [];
  // One entry per context level: the dotted prefix that `this` stands for, and block param names.
  type Frame = { prefix: string; params: Map<string, string> };
  const join = (a: string, b: string) => (a && b ? `${a}.${b}` : a || b);

  const resolve = (path: PathExpression, stack: Frame[]): string | undefined => {
    if (path.data) {
      // `@root.user.name` reads the root context; every other `@` name is runtime data.
      return path.parts[0] === 'root' && path.parts.length > 1 ? path.parts.slice(1).join('.') : undefined;
    }
    const frame = stack[Math.max(0, stack.length - 1 - path.depth)]!;
    const [head, ...rest] = path.parts;
    if (head === undefined) return frame.prefix || undefined;
    for (let i = stack.length - 1 - path.depth; i >= 0 && path.depth === 0; i--) {
      const bound = stack[i]!.params.get(head);
      if (bound !== undefined) return join(bound, rest.join('.')) || undefined;
    }
    return join(frame.prefix, path.parts.join('.'));
  };

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
    node.params.forEach((p) => expr(p, stack));
    node.hash?.pairs.forEach((p) => expr(p.value, stack));
  };

  const program = (p: Program | undefined | null, stack: Frame[]) => p?.body.forEach((n) => statement(n, stack));

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
        const contextExpr = CONTEXT_HELPERS.has(helper) ? block.params[0] : block.params.length === 0 ? block.path : undefined;
        const contextName =
          contextExpr?.type === 'PathExpression' ? resolve(contextExpr as PathExpression, stack) : undefined;
        const params = new Map<string, string>();
        if (contextName !== undefined && block.program.blockParams?.[0]) params.set(block.program.blockParams[0], contextName);
        const inner: Frame = {
          prefix: contextName !== undefined && !block.program.blockParams?.length ? contextName : stack[stack.length - 1]!.prefix,
          params,
        };
        program(block.program, contextName !== undefined ? [...stack, inner] : stack);
        program(block.inverse, stack);
        break;
      }
      case 'PartialStatement':
      case 'PartialBlockStatement': {
        const p = node as hbs.AST.PartialStatement & { program?: Program };
        p.params.forEach((e) => expr(e, stack));
        p.hash?.pairs.forEach((pair) => expr(pair.value, stack));
        if (p.name.type === 'PathExpression') {
          const context = p.params[0]?.type === 'PathExpression' ? resolve(p.params[0] as PathExpression, stack) : undefined;
          calls.push({
            name: (p.name as PathExpression).original,
            prefix: context ?? stack[stack.length - 1]!.prefix,
            hashKeys: p.hash?.pairs.map((pair) => pair.key) ?? [],
          });
        }
        program(p.program, stack);
        break;
      }
      default:
        break;
    }
  };

  program(ast, [{ prefix: '', params: new Map() }]);
  return { variables: [...vars], calls };
}

/** Whether a layout places the body unescaped with `{{{body}}}`. */
export function placesBody(ast: Program): 'raw' | 'escaped' | 'missing' {
  let found: 'raw' | 'escaped' | 'missing' = 'missing';
  const visit = (node: Node | undefined | null): void => {
    if (!node || typeof node !== 'object') return;
    if (node.type === 'MustacheStatement') {
      const m = node as hbs.AST.MustacheStatement;
      if (m.path.type === 'PathExpression' && (m.path as PathExpression).original === 'body' && m.params.length === 0) {
        if (!m.escaped) found = 'raw';
        else if (found === 'missing') found = 'escaped';
      }
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((v) => visit(v as Node));
      else if (value && typeof value === 'object' && 'type' in value) visit(value as Node);
    }
  };
  visit(ast);
  return found;
}

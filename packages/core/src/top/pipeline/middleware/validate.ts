import type httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import * as v from 'valibot';
import type { RouteDef } from '../../../kernel/api/route.js';
import { errors, type FieldIssue } from '../../../kernel/errors/common.js';
import { must } from '../../../kernel/must.js';
import { toWellFormed, wellFormed } from '../../../kernel/text.js';
import { type Event, headerOf, type Middleware } from './state.js';

export type MultipartParser = () => Promise<ReturnType<typeof httpMultipartBodyParser>>;

const toIssues = (issues: v.BaseIssue<unknown>[], where: FieldIssue['in']): FieldIssue[] =>
  issues.map((issue) => ({
    field: v.getDotPath(issue) ?? (where === 'body' ? '(body)' : '(query)'),
    in: where,
    message: issue.message,
  }));

const decodeBody = (event: Event) =>
  event.body === undefined || event.body === null
    ? ''
    : event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body;

/** A `\\uD800`-`\\uDFFF` escape: the only way a JSON body can hold a lone surrogate (bytes decode as UTF-8). */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * The dot path of the first string or key that is not valid Unicode (a lone surrogate, which JSON can
 * spell): it cannot be stored as UTF-8, mailed or shown, whatever field it is in. Walked without recursion.
 */
function illFormedAt(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, path] = top;
    if (typeof node === 'string' && !wellFormed(node)) return path || '(body)';
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, child] of Object.entries(node)) {
      const at = path ? `${path}.${key}` : key;
      // The key is named with U+FFFD in its surrogate's place: the answer stays valid Unicode too.
      if (!wellFormed(key)) return toWellFormed(at);
      stack.push([child, at]);
    }
  }
  return undefined;
}

const parseBody = (event: Event, route: RouteDef): unknown => {
  const text = decodeBody(event);
  const type = (headerOf(event, 'content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const takesForms = route.bodyType === 'form-or-json' || route.bodyType === 'any-form-or-json';
  if (takesForms && type === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  // No body at all reads as {}: routes whose fields are all optional (POST /webhooks/{id}/test) need none.
  if (text.trim() === '') return {};
  // A body without a Content-Type is read as JSON; one whose type says otherwise (text, XML, curl -d's
  // default form type on a JSON route) is refused, never guessed at.
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    const expected = takesForms ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
    throw errors.validation([{ field: 'Content-Type', in: 'header', message: `Expected ${expected}` }]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'The request body is not valid JSON.' }]);
  }
  const illFormed = ESCAPED_SURROGATE.test(text) ? illFormedAt(parsed) : undefined;
  if (illFormed !== undefined)
    throw errors.validation([{ field: illFormed, in: 'body', message: 'Valid Unicode text (no lone surrogate)' }]);
  // Every JSON body of the API is an object, and valibot's object schemas take an array (`[]` has no
  // unknown key): an array, null, string or number is refused here, once for every route.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'Expected a JSON object' }]);
  }
  return parsed;
};

/** The `name` parameter of a Content-Disposition value (not `filename`). */
const NAME_PARAMETER = /(?:^|;)\s*name\s*=\s*(?:"[^"]*"|[^;\s]+)/i;

/**
 * The multipart parser crashes the process on a body cut off before its closing boundary and on a part
 * without a field name (errors thrown in event handlers nobody catches): such bodies are refused here first.
 */
function assertSafeMultipart(event: Event) {
  const type = headerOf(event, 'content-type') ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!/^multipart\/form-data/i.test(type.trim()) || !boundary) {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'Expected multipart/form-data with a boundary' }]);
  }
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const closing = body.indexOf(`${delimiter}--`);
  if (closing < 0) {
    throw errors.validation([
      { field: '(body)', in: 'body', message: 'The multipart body is incomplete (no closing boundary)' },
    ]);
  }
  // Each part's head (latin1 keeps one character per byte): it must name its field.
  const parts = body.subarray(0, closing).toString('latin1').split(delimiter).slice(1);
  for (const part of parts) {
    const headEnd = part.indexOf('\r\n\r\n');
    const head = headEnd < 0 ? part : part.slice(0, headEnd);
    const disposition = head
      .split('\r\n')
      .find((line) => line.slice(0, line.indexOf(':')).trim().toLowerCase() === 'content-disposition');
    if (!disposition || !NAME_PARAMETER.test(disposition.slice(disposition.indexOf(':') + 1))) {
      throw errors.validation([
        { field: '(body)', in: 'body', message: 'Every multipart part needs Content-Disposition: form-data; name="…"' },
      ]);
    }
  }
}

/** Names JavaScript reads as an object's prototype or class wherever the object is copied. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** 8. Path, query and body validation against the route's valibot schemas. */
export const validate = (multipart: MultipartParser | undefined): Middleware => ({
  before: async (request) => {
    const { event, internal } = request;
    const route = must(internal.route, 'the resolved route');
    internal.params = {};
    internal.query = {};
    if (route.params) {
      // A token is taken only as the service wrote it (base64url and a dot): any percent-escape in its path
      // is another spelling of the address, refused like a changed character (decisions.md, Conversations).
      if ('token' in route.params && event.rawPath.includes('%')) throw errors.notFound();
      const parsed = v.safeParse(v.object(route.params), event.pathParameters ?? {});
      if (!parsed.success) throw errors.notFound();
      internal.params = parsed.output;
    }
    const { project: _p, environment: _e, ...rawQuery } = event.queryStringParameters ?? {};
    const groups: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(route.queryGroups ?? {})) {
      const family: Record<string, string | undefined> = {};
      for (const [param, value] of Object.entries(rawQuery))
        if (param.startsWith(`${name}.`)) {
          const key = param.slice(name.length + 1);
          // A key no object can carry as data (valibot's records drop them): refused, never ignored.
          if (PROTOTYPE_KEYS.has(key))
            throw errors.validation([{ field: param, in: 'query', message: 'Not a key this filter takes' }]);
          family[key] = value;
          delete rawQuery[param];
        }
      if (Object.keys(family).length === 0) continue;
      const parsed = v.safeParse(schema, family);
      if (!parsed.success)
        throw errors.validation(
          toIssues(parsed.issues, 'query').map((issue) => ({
            ...issue,
            field: issue.field === '(query)' ? name : `${name}.${issue.field}`,
          })),
        );
      groups[name] = parsed.output;
    }
    if (route.query) {
      const parsed = v.safeParse(v.object(route.query), rawQuery);
      if (!parsed.success) throw errors.validation(toIssues(parsed.issues, 'query'));
      internal.query = parsed.output;
    }
    Object.assign(internal.query, groups);
    if (!route.body) {
      // An API operation that takes no body refuses one (its JSON and type checked as any body's), never
      // ignores it: the caller meant something by it. Nothing, or `{}` as many clients send, is no body.
      if (route.produces === undefined && decodeBody(event).trim() !== '') {
        const sent = parseBody(event, route) as object;
        if (Object.keys(sent).length > 0)
          throw errors.validation([{ field: '(body)', in: 'body', message: 'This operation takes no body' }]);
      }
      return;
    }
    // Bodies are read as sent: a compressed one would be parsed as its bytes.
    const encoding = headerOf(event, 'content-encoding')?.trim().toLowerCase();
    if (encoding && encoding !== 'identity' && event.body)
      throw errors.validation([
        { field: 'Content-Encoding', in: 'header', message: 'Compressed request bodies are not accepted' },
      ]);
    let input: unknown;
    const multipartSent = /^multipart\/form-data/i.test((headerOf(event, 'content-type') ?? '').trim());
    if (route.bodyType === 'multipart' || (route.bodyType === 'any-form-or-json' && multipartSent)) {
      if (!multipart) throw new Error(`Route ${route.id} takes multipart but its group handler has no parser`);
      assertSafeMultipart(event);
      await (await multipart()).before?.(request as never);
      input = event.body;
    } else {
      input = parseBody(event, route);
    }
    const parsed = v.safeParse(route.body, input);
    if (!parsed.success) throw errors.validation(toIssues(parsed.issues, 'body'));
    internal.body = parsed.output;
  },
});

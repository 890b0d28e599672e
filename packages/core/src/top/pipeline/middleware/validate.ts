import type httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import * as v from 'valibot';
import type { RouteDef } from '../../../kernel/api/route.js';
import { errors, type FieldIssue } from '../../../kernel/errors/common.js';
import { must } from '../../../kernel/must.js';
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

const parseBody = (event: Event, route: RouteDef): unknown => {
  const text = decodeBody(event);
  const type = (headerOf(event, 'content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const takesForms = route.bodyType === 'form-or-json' || route.bodyType === 'any-form-or-json';
  if (takesForms && type === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  // No body at all reads as {}: routes whose fields are all optional (POST /webhooks/{id}/test) need none.
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'The request body is not valid JSON.' }]);
  }
  // Every JSON body of the API is an object, and valibot's object schemas take an array (`[]` has no
  // unknown key): an array, null, string or number is refused here, once for every route.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'Expected a JSON object' }]);
  }
  return parsed;
};

/**
 * The multipart parser crashes the process on a body cut off before its closing boundary (an 'error'
 * event nobody listens to): such a body is refused here first.
 */
function assertCompleteMultipart(event: Event) {
  const type = headerOf(event, 'content-type') ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!/^multipart\/form-data/i.test(type.trim()) || !boundary) {
    throw errors.validation([{ field: '(body)', in: 'body', message: 'Expected multipart/form-data with a boundary' }]);
  }
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  if (!body.includes(`--${boundary[1] ?? boundary[2]}--`)) {
    throw errors.validation([
      { field: '(body)', in: 'body', message: 'The multipart body is incomplete (no closing boundary)' },
    ]);
  }
}

/** 8. Path, query and body validation against the route's valibot schemas. */
export const validate = (multipart: MultipartParser | undefined): Middleware => ({
  before: async (request) => {
    const { event, internal } = request;
    const route = must(internal.route, 'the resolved route');
    internal.params = {};
    internal.query = {};
    if (route.params) {
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
          family[param.slice(name.length + 1)] = value;
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
    if (!route.body) return;
    let input: unknown;
    const multipartSent = /^multipart\/form-data/i.test((headerOf(event, 'content-type') ?? '').trim());
    if (route.bodyType === 'multipart' || (route.bodyType === 'any-form-or-json' && multipartSent)) {
      if (!multipart) throw new Error(`Route ${route.id} takes multipart but its group handler has no parser`);
      assertCompleteMultipart(event);
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

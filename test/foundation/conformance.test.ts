import { randomUUID } from 'node:crypto';
import { signToken } from '@helpdesk/core/kernel/links/signed';
import { buildOpenApiDocument } from '@helpdesk/core/top/openapi/document';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import {
  type Broken,
  brokenValues,
  patternsWithoutExamples,
  resolver,
  type Schema,
  validValue,
} from '../support/openapi-cases.js';

/**
 * The OpenAPI document says everything validation enforces (issue 27, section 4): for every operation,
 * requests derived from the document alone are accepted when the document calls them valid (no 422),
 * and refused with 422 `validation.failed` when they break one rule the document states.
 */
const app = await startTestApp({ consumers: false });
const doc = buildOpenApiDocument(allRoutes, [{ url: '/api/v1', description: 'test' }]) as {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
const resolve = resolver(doc);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops)
    .filter(([, op]) => op.operationId && op.operationId !== 'getOpenApi')
    .map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as Operation })),
);

/** A path parameter's value: a signed token where the route wants one, else what the document allows. */
const pathValue = (path: string, p: Parameter) =>
  p.name === 'token'
    ? signToken([path.includes('/feedback/') ? 'r' : 't', randomUUID(), 'live', randomUUID()])
    : String(validValue(p.schema, resolve) ?? randomUUID());

type Form = Record<string, unknown>;

function formData(fields: Form) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(name, value, 'welcome.hbs');
    else if (Array.isArray(value)) for (const v of value) form.append(name, v instanceof Blob ? v : String(v), 'x.hbs');
    else if (value !== undefined) form.append(name, String(value));
  }
  return form;
}

describe('the OpenAPI document and the API agree', () => {
  it('gives an example for every pattern a request may have to match', () => {
    const missing = operations.flatMap(({ method, path, op }) => [
      ...(op.parameters ?? []).flatMap((p) =>
        patternsWithoutExamples(p.schema, resolve, `${p.in} ${p.name}`).map((m) => `${method} ${path}: ${m}`),
      ),
      ...Object.entries(op.requestBody?.content ?? {}).flatMap(([type, c]) =>
        patternsWithoutExamples(c.schema, resolve).map((m) => `${method} ${path} (${type}): ${m}`),
      ),
    ]);
    expect(missing).toEqual([]);
  });

  it('accepts what the document calls valid and refuses, with 422, what breaks one of its rules', async () => {
    const t = await createTenant({ plan: 'pro' });
    const key = await t.key({ rateLimit: 1_000_000 });
    expect(operations.length).toBeGreaterThan(55);
    const wrong: string[] = [];
    let calls = 0;

    for (const { path, method, op } of operations) {
      const params = op.parameters ?? [];
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(pathValue(path, params.find((p) => p.name === name && p.in === 'path') as Parameter)),
      );
      const headers: Record<string, string> = {};
      if (params.some((p) => p.name === 'Service-Project')) headers['Service-Project'] = 'main';
      const keyed = !path.startsWith('/public/');
      const queryParams = params.filter((p) => p.in === 'query' && p.name !== 'project' && p.name !== 'environment');
      const validQuery = (full: boolean) =>
        Object.fromEntries(
          queryParams
            .filter((p) => full || p.required)
            .map((p) => [p.name, validValue(p.schema, resolve)])
            .filter(([, v]) => v !== undefined),
        ) as Record<string, string>;

      const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const send = (query: Record<string, unknown>, body: unknown) => {
        calls++;
        const options = {
          key: keyed ? key : undefined,
          headers: { ...headers },
          query: query as Record<string, string>,
        } as Parameters<typeof app.call>[2] & { headers: Record<string, string> };
        if (contentType === 'multipart/form-data') Object.assign(options, { rawBody: formData(body as Form) });
        else if (body !== undefined) Object.assign(options, { body });
        return app.call(method, url, options);
      };
      const label = `${method} ${path}`;

      // Valid: required fields only, then every field the document lists (query and body).
      const bodies = media ? [validValue(media.schema, resolve), validValue(media.schema, resolve, true)] : [undefined];
      for (const [i, mode] of ['required fields', 'every field'].entries()) {
        const res = await send(validQuery(i === 1), bodies[Math.min(i, bodies.length - 1)]);
        // A domain answer (an unknown member, a taken email) is not the document's business: validation is.
        if (res.body?.error?.code === 'validation.failed' || res.status >= 500)
          wrong.push(`${label} valid (${mode}): ${res.status} ${res.text.slice(0, 200)}`);
      }

      // Broken: one rule at a time, in the query and in the body.
      const refused = async (what: string, query: Record<string, unknown>, body: unknown) => {
        const res = await send(query, body);
        if (res.status !== 422 || res.body?.error?.code !== 'validation.failed')
          wrong.push(`${label} ${what}: ${res.status} ${res.text.slice(0, 160)}`);
      };
      for (const p of queryParams) {
        const value = validValue(p.schema, resolve);
        for (const b of brokenValues(p.schema, resolve, value)) {
          if (b.rule === 'type' && typeof b.value === 'number') continue; // a query value is text: "12345" is a string
          await refused(
            `query ${p.name} breaks ${b.rule}`,
            { ...validQuery(false), [p.name]: String(b.value) },
            bodies[0],
          );
        }
      }
      if (media && contentType) {
        const formBody = contentType !== 'application/json';
        for (const b of brokenValues(media.schema, resolve, bodies[0]) as Broken[]) {
          // A form carries text: a wrong JSON type cannot be sent through it.
          if (formBody && (b.rule === 'type' || b.rule === 'integer')) continue;
          await refused(`body ${b.at || '(body)'} breaks ${b.rule}`, validQuery(false), b.value);
        }
      }
    }
    expect(calls).toBeGreaterThan(400);
    expect(wrong).toEqual([]);
  }, 300_000);

  it('answers the longest allowed value and a 2 MB one of every body string without a hang (five seconds at most, on a loaded machine)', async () => {
    const t = await createTenant({ plan: 'pro' });
    const key = await t.key({ rateLimit: 1_000_000 });
    const slow: string[] = [];
    let sent = 0;
    for (const { path, method, op } of operations) {
      const media = op.requestBody?.content['application/json'];
      if (!media) continue;
      const params = op.parameters ?? [];
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(pathValue(path, params.find((p) => p.name === name && p.in === 'path') as Parameter)),
      );
      const valid = validValue(media.schema, resolve, true) as Record<string, unknown>;
      const strings = Object.entries(resolve(media.schema).properties ?? {})
        .map(([name, p]) => [name, resolve(p)] as const)
        .filter(([, p]) => p.type === 'string' || (Array.isArray(p.type) && p.type.includes('string')));
      for (const [name, property] of strings) {
        const longest = property.maxLength ?? 10_000;
        // Runs a parser or pattern might retry from every position.
        for (const value of ['(', '-', 'a@', '"\\', ' ']
          .map((c) => c.repeat(longest).slice(0, longest))
          .concat('a'.repeat(2_000_000))) {
          const start = performance.now();
          const res = await app.call(method, url, {
            key: path.startsWith('/public/') ? undefined : key,
            headers: { 'Service-Project': 'main' },
            body: { ...valid, [name]: value },
          });
          sent++;
          const ms = performance.now() - start;
          // A pattern or parser that is super-linear takes minutes on 2 MB; speed itself is the bench's business.
          if (ms > 5_000 || res.status >= 500)
            slow.push(`${method} ${path} ${name} (${value.length} characters): ${res.status} in ${ms.toFixed(0)} ms`);
        }
      }
    }
    expect(sent).toBeGreaterThan(200);
    expect(slow).toEqual([]);
  }, 300_000);
});

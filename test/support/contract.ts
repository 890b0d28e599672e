import { buildOpenApiDocument } from '@helpdesk/core/top/openapi/document';
import { createMatcher } from '@helpdesk/core/top/pipeline/match';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Contract check: every response the HTTP tests receive must match the OpenAPI document's schema for
 * its operation and status. A mismatch, an undocumented status or an error code the operation does not
 * list (its route's `problems` plus the pipeline's) fails the test that made the call.
 */
const doc = buildOpenApiDocument(allRoutes, [{ url: 'http://127.0.0.1:3000', description: 'test' }]);
const match = createMatcher(allRoutes);
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const compiled = new Map<string, ValidateFunction>();

type Operation = {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};

type ErrorSchema = { allOf: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }[] };
const documentedCodes = (operation: Operation, status: number) =>
  (
    (operation.responses[String(status)]?.content?.['application/json']?.schema as ErrorSchema | undefined)?.allOf ?? []
  ).flatMap((part) => part.properties?.error?.properties?.code?.enum ?? []);

export function checkContract(method: string, url: URL, status: number, contentType: string | null, body: unknown) {
  const found = match(method, url.pathname);
  if (found?.kind !== 'route') return; // unknown routes (404/405) have no operation to check against
  const route = found.route;
  if (route.root) return;
  // HEAD is a GET without the body (top/pipeline/match.ts): checked against the GET.
  const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
  const operation = (doc.paths as Record<string, Record<string, Operation>>)[route.path]![verb]!;
  const response = operation.responses[String(status)];
  if (!response) {
    throw new Error(
      `Contract: ${method} ${route.path} answered ${status}, which its OpenAPI operation ${operation.operationId} does not document`,
    );
  }
  if (method === 'HEAD') return;
  if (!contentType?.includes('application/json')) {
    const type = contentType?.split(';')[0]?.trim() ?? '(none)';
    if (!response.content?.[type]) {
      throw new Error(
        `Contract: ${method} ${route.path} ${status} answered ${type}, which the document does not declare`,
      );
    }
    return;
  }
  const schema = response.content?.['application/json']?.schema;
  if (!schema)
    throw new Error(`Contract: ${method} ${route.path} ${status} answered JSON where the document declares none`);
  // 413 is API Gateway's own answer (no error code), documented with its own schema.
  const coded = status >= 400 && status !== 413;
  const code = coded ? (body as { error?: { code?: unknown } } | null)?.error?.code : undefined;
  const documented = coded ? documentedCodes(operation, status) : [];
  if (coded && !documented.includes(String(code))) {
    throw new Error(
      `Contract: ${method} ${route.path} answered ${status} ${String(code)}, which its OpenAPI operation ${operation.operationId} does not document (it lists ${documented.join(', ')}): add it to the route's problems`,
    );
  }
  const key = `${operation.operationId} ${status}`;
  let validate = compiled.get(key);
  // Error responses refer to the shared Error envelope and the per-code problem schemas under components.
  if (!validate) compiled.set(key, (validate = ajv.compile({ ...schema, components: doc.components })));
  if (!validate(body)) {
    throw new Error(
      `Contract: ${method} ${route.path} ${status} does not match the OpenAPI schema of ${operation.operationId}: ${ajv.errorsText(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}

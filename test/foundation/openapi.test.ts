import { routeKey } from '@helpdesk/core/kernel/api/route';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';

const app = await startTestApp();

describe('GET /openapi.json', () => {
  it('serves a valid OpenAPI 3.1.0 document, version 1.2.0, without a key', async () => {
    const res = await app.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.2.0');
    const servers = res.body.servers.map((s: { url: string }) => s.url);
    expect(servers).toContain(`${process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000'}/api/v1`);
    expect(servers).toContain('https://{api-id}.execute-api.{region}.amazonaws.com/api/v1');
    expect(servers).toContain('http://127.0.0.1:3000/api/v1');
    const result = await new Validator().validate(res.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('documents every route of the route table with its scope and the error shape', async () => {
    const { body: doc } = await app.call('GET', '/openapi.json');
    const documented = Object.entries(
      doc.paths as Record<string, Record<string, { operationId: string; security: { apiKey: string[] }[] }>>,
    ).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} /api/v1${path}`, op })),
    );
    const expected = allRoutes.filter((r) => !r.root);
    expect(documented.map((d) => d.key).sort()).toEqual(expected.map(routeKey).sort());
    for (const route of expected) {
      const op = documented.find((d) => d.key === routeKey(route))!.op;
      expect(op.operationId).toBe(route.id);
      if (route.scope) expect(op.security).toEqual([{ apiKey: [route.scope] }]);
    }
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
  });
});

describe('GET /docs', () => {
  it('serves the reference page and the Redoc bundle from the installed package, without a key', async () => {
    const page = await app.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('spec-url="/api/v1/openapi.json"');
    expect(page.text).toContain('src="/docs/redoc.standalone.js"');
    const script = await app.call('GET', '/docs/redoc.standalone.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.text.length).toBeGreaterThan(100_000);
    // No CDN: the page loads scripts only from this host.
    expect(page.text.match(/src="([^"]+)"/g)).toEqual(['src="/docs/redoc.standalone.js"']);
    // and the browser is told so: scripts from this origin only, never framed, never sniffed.
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('route table', () => {
  it('loads without the database or any AWS client (CDK, the local server and the OpenAPI generator import it)', () => {
    const script = `
      await import('@helpdesk/core/top/routes/table');
      const { createRequire } = await import('node:module');
      const cache = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(cache.filter((m) => /electrodb|@aws-sdk/.test(m))));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual([]);
  });

  it('names what every keyed write needs: a scope, or full access', async () => {
    const { allRoutes } = await import('@helpdesk/core/top/routes/table');
    const open = allRoutes.filter((r) => r.tenancy !== 'public' && r.method !== 'GET' && !r.scope && !r.fullAccess);
    expect(open.map((r) => r.id)).toEqual([]);
  });

  it("matches as API Gateway does: a literal segment first, a parameter's route for other methods, each method once in Allow", async () => {
    const { allRoutes } = await import('@helpdesk/core/top/routes/table');
    const { createMatcher } = await import('@helpdesk/core/top/pipeline/match');
    const match = createMatcher(allRoutes);
    expect(match('GET', '/api/v1/tickets/metrics')).toMatchObject({ kind: 'route', route: { id: 'getTicketMetrics' } });
    expect(match('PATCH', '/api/v1/tickets/metrics')).toMatchObject({
      kind: 'route',
      pathParameters: { ticketId: 'metrics' },
    });
    const refused = match('POST', '/api/v1/tickets/metrics');
    expect(refused).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD', 'PATCH', 'DELETE'] });
    expect(match('HEAD', '/api/v1/tickets/metrics')).toMatchObject({
      kind: 'route',
      route: { id: 'getTicketMetrics' },
    });
    for (const route of allRoutes) {
      const found = match('PUT', `/api/v1${route.path.replace(/\{\w+\}/g, 'x')}`);
      if (found?.kind === 'method-not-allowed')
        expect(new Set(found.allowed).size, route.path).toBe(found.allowed.length);
    }
  });

  it("gives API Gateway one ANY route per path, and a route per method where another group's parameter path also matches", async () => {
    const { allRoutes } = await import('@helpdesk/core/top/routes/table');
    const { fullPath } = await import('@helpdesk/core/kernel/api/route');
    const { createGatewaySelector, createMatcher, gatewayRoutes } = await import('@helpdesk/core/top/pipeline/match');
    const gateway = gatewayRoutes(allRoutes);
    expect(gateway.length).toBeLessThan(allRoutes.length);
    expect(new Set(gateway.map((r) => r.key)).size).toBe(gateway.length);
    const select = createGatewaySelector(gateway);
    const match = createMatcher(allRoutes);
    // API Gateway's choice reaches the Lambda of the operation the whole table would pick, for every
    // operation's path under every method: the group then tells the methods apart (or answers 405).
    for (const route of allRoutes) {
      const path = fullPath(route).replace(/\{\w+\}/g, 'x');
      for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']) {
        const found = match(method, path);
        const chosen = select(method, path);
        if (found?.kind === 'route') expect(chosen?.route.group, `${method} ${path}`).toBe(found.route.group);
        else expect(chosen, `${method} ${path}`).toBeDefined();
      }
    }
    expect(select('GET', '/api/v1/emails/preview')?.route).toMatchObject({
      key: 'ANY /api/v1/emails/{id}',
      group: 'emails',
    });
    expect(select('POST', '/api/v1/emails/preview')?.route).toMatchObject({ key: 'POST /api/v1/emails/preview' });
    expect(select('GET', '/api/v1/nothing-here')).toBeUndefined();
  });

  it('refuses an empty PATCH body on every route (nothing to change is a mistake, not a no-op)', async () => {
    await import('@helpdesk/core/kernel/validation');
    const v = await import('valibot');
    const { allRoutes } = await import('@helpdesk/core/top/routes/table');
    const patches = allRoutes.filter((r) => r.method === 'PATCH' && r.body);
    expect(patches.length).toBeGreaterThan(5);
    const accepting = patches.filter((r) => v.safeParse(r.body!, {}).success).map((r) => r.id);
    expect(accepting).toEqual([]);
  });
});

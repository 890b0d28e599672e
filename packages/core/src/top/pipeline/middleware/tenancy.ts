import { requirePlan } from '../../../identity/quota.js';
import { addLogContext } from '../../../kernel/logger.js';
import { must } from '../../../kernel/must.js';
import { requireAccountWriter, resolveTenant } from '../tenancy.js';
import { headerOf, type Middleware } from './state.js';

/** 7. Project and environment (header, else query), then the plan a gated feature needs, before any input is read. */
export const tenancy = (): Middleware => ({
  before: ({ event, internal }) => {
    if (!internal.principal) return;
    // Both places, the header first: it decides, but a bad value in either is refused.
    const given = (header: string, query: string) => [
      ...[headerOf(event, header)].flatMap((value) =>
        value === undefined ? [] : [{ value, from: 'header' as const }],
      ),
      ...[event.queryStringParameters?.[query]].flatMap((value) =>
        value === undefined ? [] : [{ value, from: 'query' as const }],
      ),
    ];
    const route = must(internal.route, 'the resolved route');
    const ctx = resolveTenant(internal.principal, route.tenancy === 'project', {
      project: given('service-project', 'project'),
      environment: given('service-environment', 'environment'),
    });
    internal.ctx = ctx;
    addLogContext({ account: ctx.accountId, ...('projectId' in ctx ? { project: ctx.projectId, env: ctx.env } : {}) });
    if (route.accountWrite) requireAccountWriter(internal.principal, internal.ctx);
    const plan = route.plan;
    if (plan) requirePlan(internal.ctx, plan.minimum, plan.feature);
  },
});

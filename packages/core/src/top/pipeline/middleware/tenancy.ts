import { requirePlan } from '../../../identity/quota.js';
import { must } from '../../../kernel/must.js';
import { resolveTenant } from '../tenancy.js';
import { headerOf, type Middleware } from './state.js';

/** 7. Project and environment (header, else query), then the plan a gated feature needs, before any input is read. */
export const tenancy = (): Middleware => ({
  before: ({ event, internal }) => {
    if (!internal.principal) return;
    const given = (header: string, query: string) => {
      const fromHeader = headerOf(event, header);
      if (fromHeader !== undefined) return { value: fromHeader, from: 'header' as const };
      const fromQuery = event.queryStringParameters?.[query];
      return fromQuery === undefined ? undefined : { value: fromQuery, from: 'query' as const };
    };
    const route = must(internal.route, 'the resolved route');
    internal.ctx = resolveTenant(internal.principal, route.tenancy === 'project', {
      project: given('service-project', 'project'),
      environment: given('service-environment', 'environment'),
    });
    const plan = route.plan;
    if (plan) requirePlan(internal.ctx, plan.minimum, plan.feature);
  },
});

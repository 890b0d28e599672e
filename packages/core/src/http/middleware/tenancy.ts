import { requirePlan } from '../../auth/quota.js';
import { resolveTenant } from '../tenancy.js';
import { headerOf, type Middleware } from './state.js';

/** 7. Project and environment (header, else query), then the plan a gated feature needs, before any input is read. */
export const tenancy = (): Middleware => ({
  before: async ({ event, internal }) => {
    if (!internal.principal) return;
    const given = (header: string, query: string) => {
      const fromHeader = headerOf(event, header);
      if (fromHeader !== undefined) return { value: fromHeader, from: 'header' as const };
      const fromQuery = event.queryStringParameters?.[query];
      return fromQuery === undefined ? undefined : { value: fromQuery, from: 'query' as const };
    };
    internal.ctx = resolveTenant(internal.principal, internal.route!.tenancy === 'project', {
      project: given('service-project', 'project'),
      environment: given('service-environment', 'environment'),
    });
    const plan = internal.route!.plan;
    if (plan) requirePlan(internal.ctx, plan.minimum, plan.feature);
  },
});

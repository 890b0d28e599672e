import type { EntityItem } from 'electrodb';
import { keptCopies } from '../../kernel/kept.js';
import type { TenantKey } from '../../kernel/tenant.js';
import { LogAlertRule } from './alert-entities.js';

export type RuleItem = EntityItem<typeof LogAlertRule>;

export const keyOf = (ctx: TenantKey) => `${ctx.projectId}#${ctx.env}`;

/**
 * The project's rules (one Query of their partition), kept 10 s per instance: the grouping consumer
 * asks on every message whether a project has any, and most have none. Apart from the rules' routes
 * (alert-rules.ts) so the consumer loads only this.
 */
export const rules = keptCopies(10_000, async (key) => {
  const [projectId = '', env] = key.split('#');
  const { data } = await LogAlertRule.query.byId({ projectId, env: env as TenantKey['env'] }).go({ pages: 'all' });
  return data.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
});

/** The project's enabled rules, from the kept copy. */
export const enabledRules = async (tenant: TenantKey) => (await rules.get(keyOf(tenant))).filter((r) => r.enabled);

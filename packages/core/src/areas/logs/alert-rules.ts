import { randomUUID } from 'node:crypto';
import { listMembers } from '../../identity/accounts.js';
import { withinCap } from '../../kernel/cap.js';
import { isConditionFailure } from '../../kernel/db/errors.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import type { TenantKey, TenantRef } from '../../kernel/tenant.js';
import { LogAlertRule } from './alert-entities.js';
import type {
  AlertActions,
  AlertFilters,
  AlertRuleCreate,
  AlertRuleUpdate,
  AlertTriggerSpec,
} from './alert-schemas.js';
import { keyOf, type RuleItem, rules } from './alert-setup.js';
import { DEFAULT_COOLDOWN_MINUTES, MAX_ALERT_RULES } from './values.js';

const tenantOf = (ctx: TenantKey) => ({ projectId: ctx.projectId, env: ctx.env });

export const toRule = (r: RuleItem) => {
  const actions = r.actions as AlertActions;
  return {
    id: r.ruleId,
    name: r.name,
    trigger: r.trigger as AlertTriggerSpec,
    filters: r.filters as AlertFilters,
    actions: {
      email: { memberIds: actions.email?.memberIds ?? [], addresses: actions.email?.addresses ?? [] },
      webhook: actions.webhook ?? false,
    },
    cooldownMinutes: r.cooldownMinutes,
    enabled: r.enabled,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
};

export const listAlertRules = async (ctx: TenantKey) => ({ rules: (await rules.fresh(keyOf(ctx))).map(toRule) });

async function ruleItem(ctx: TenantKey, ruleId: string) {
  const { data } = await LogAlertRule.get({ ...tenantOf(ctx), ruleId }).go();
  if (!data) throw errors.notFound('Log alert rule');
  return data;
}

export const getAlertRule = async (ctx: TenantKey, ruleId: string) => toRule(await ruleItem(ctx, ruleId));

/** Members mailed by a rule must be the account's (they may leave later: then they are skipped). */
async function checkMembers(ctx: TenantRef, actions: AlertActions | undefined) {
  const wanted = actions?.email?.memberIds ?? [];
  if (!wanted.length) return;
  const ids = new Set((await listMembers(ctx.accountId)).map((m) => m.id));
  const unknown = wanted.filter((id) => !ids.has(id));
  if (unknown.length) throw problem('log_alert.unknown_member', { memberIds: unknown });
}

export async function createAlertRule(ctx: TenantRef, input: AlertRuleCreate) {
  if ((await rules.fresh(keyOf(ctx))).length >= MAX_ALERT_RULES)
    throw problem('log_alert.limit', { limit: MAX_ALERT_RULES });
  await checkMembers(ctx, input.actions);
  const { data } = await LogAlertRule.create({
    ...tenantOf(ctx),
    ruleId: randomUUID(),
    name: input.name,
    trigger: input.trigger,
    filters: input.filters ?? {},
    actions: input.actions ?? {},
    cooldownMinutes: input.cooldownMinutes ?? DEFAULT_COOLDOWN_MINUTES,
    enabled: input.enabled ?? true,
  }).go();
  rules.forget(keyOf(ctx));
  const all = (await LogAlertRule.query.byId(tenantOf(ctx)).go({ pages: 'all', consistent: true })).data;
  if (!withinCap(all, MAX_ALERT_RULES, (r) => r.ruleId, data.ruleId)) {
    await LogAlertRule.delete({ ...tenantOf(ctx), ruleId: data.ruleId }).go();
    throw problem('log_alert.limit', { limit: MAX_ALERT_RULES });
  }
  return toRule(data);
}

export async function updateAlertRule(ctx: TenantRef, ruleId: string, input: AlertRuleUpdate) {
  await ruleItem(ctx, ruleId);
  await checkMembers(ctx, input.actions);
  try {
    const { data } = await LogAlertRule.patch({ ...tenantOf(ctx), ruleId })
      .set({ ...input, updatedAt: new Date().toISOString() })
      .go({ response: 'all_new' });
    rules.forget(keyOf(ctx));
    return toRule(data as RuleItem);
  } catch (err) {
    // Deleted between the read and the write.
    if (isConditionFailure(err)) throw errors.notFound('Log alert rule');
    throw err;
  }
}

export async function deleteAlertRule(ctx: TenantKey, ruleId: string) {
  await ruleItem(ctx, ruleId);
  await LogAlertRule.delete({ ...tenantOf(ctx), ruleId }).go();
  rules.forget(keyOf(ctx));
  return { deleted: true, id: ruleId };
}

import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { listMembers } from '../../identity/accounts.js';
import { consumeQuota, releaseQuota } from '../../identity/quota.js';
import { tenantOfProject } from '../../identity/tenant.js';
import { env as config } from '../../kernel/config.js';
import { ttlIn } from '../../kernel/db/client.js';
import { commit, put } from '../../kernel/db/commit.js';
import { Problem } from '../../kernel/errors/problem.js';
import { logger } from '../../kernel/logger.js';
import type { QueueMessage } from '../../kernel/ports/queue.js';
import { prepareSystemEmail } from '../emails/system-send.js';
import { eventItem } from '../webhooks/emit.js';
import { LogAlert, LogAlertState } from './alert-entities.js';
import type { AlertActions, AlertFilters, AlertTriggerSpec } from './alert-schemas.js';
import { enabledRules, type RuleItem } from './alert-setup.js';
import { countsBetween, hourOf, minuteOf, minutesAfter } from './counts.js';
import type { LogIssue } from './entities.js';
import { liveIssue, type Tenant } from './merge.js';
import type { logAlertsQueue } from './queue.js';
import { BASELINE_HOURS, levelRank } from './values.js';

type Check = QueueMessage<typeof logAlertsQueue>;
type Issue = EntityItem<typeof LogIssue>;
/** What a count-based trigger saw in the window that crossed. */
interface Crossing {
  count: number;
  windowMinutes: number;
  baseline?: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Events older than this do not alert: a backfill of old logs is history, not news. */
const RECENT_MS = 24 * HOUR;
/** Alerts listed in GET /log-alerts are kept this long. */
const ALERT_TTL_SECONDS = 90 * 86_400;

const matches = (filters: AlertFilters, issue: Issue, countedId: string) =>
  (!filters.level || levelRank(issue.level) >= levelRank(filters.level)) &&
  (!filters.scopePrefix || (issue.scope ?? '').startsWith(filters.scopePrefix)) &&
  (!filters.issueIds || filters.issueIds.includes(issue.issueId) || filters.issueIds.includes(countedId));

/**
 * An issue counted new events: each enabled rule whose filters take the issue is checked. New issue and
 * regression come with the count that caused them; threshold and spike sum the issue's minute counters
 * over every window that holds a minute the new events fell in (by the events' own times, so whatever
 * order batches were counted in, the count that completes a crossing sees it whole). An ignored or
 * snoozed issue alerts nobody.
 */
export async function checkLogAlerts(job: Check) {
  const tenant: Tenant = { projectId: job.projectId, env: job.env };
  const rules = await enabledRules(tenant);
  if (!rules.length) return;
  const issue = await liveIssue(tenant, job.issueId);
  const now = Date.now();
  if (!issue || issue.status === 'ignored' || (issue.snoozedUntil && Date.parse(issue.snoozedUntil) > now)) return;
  const taking = rules.filter((r) => matches(r.filters as AlertFilters, issue, job.issueId));
  // Events more than a day old (a backfill) are history: they make no new issue, regression or crossing news.
  const recent = minuteOf(new Date(now - RECENT_MS).toISOString());
  const fresh = job.minutes.some((m) => m >= recent);
  const counting = taking.filter(
    (r) => (r.trigger as AlertTriggerSpec).type === 'spike' || (r.trigger as AlertTriggerSpec).type === 'threshold',
  );
  const windows = counting.length ? await windowCounter(tenant, job, counting, recent, now) : undefined;
  for (const rule of taking) {
    const trigger = rule.trigger as AlertTriggerSpec;
    if (trigger.type === 'new_issue' || trigger.type === 'regression') {
      if (fresh && (trigger.type === 'new_issue' ? job.created : job.regressed))
        await fire(job, rule, issue, undefined, now);
      continue;
    }
    const crossing = windows?.(trigger);
    if (crossing) await fire(job, rule, issue, crossing, now);
  }
}

/**
 * Reads the counters the count-based rules need (one Query of minute counters, one of hour counters for
 * spikes) and answers, for a trigger, the strongest crossing among the windows holding a new minute.
 */
async function windowCounter(tenant: Tenant, job: Check, rules: RuleItem[], recent: string, now: number) {
  const current = minuteOf(new Date(now).toISOString());
  const touched = [...new Set(job.minutes)].filter((m) => m >= recent && m <= current).sort();
  const first = touched[0];
  const lastTouched = touched.at(-1);
  if (!first || !lastTouched) return () => undefined;
  const triggers = rules.map((r) => r.trigger as AlertTriggerSpec & { windowMinutes: number });
  const widest = Math.max(...triggers.map((t) => t.windowMinutes));
  const from = minutesAfter(first, 1 - widest);
  // Windows ending up to a window after the last new minute still hold it (not past now).
  const reach = minutesAfter(lastTouched, widest - 1);
  const last = reach < current ? reach : current;
  const minutes = await countsBetween(tenant, job.issueId, 'm', from, last);
  const spikes = triggers.some((t) => t.type === 'spike');
  // Whole hours before each window's first hour: the baseline.
  const hours = spikes
    ? await countsBetween(
        tenant,
        job.issueId,
        'h',
        hourOf(new Date(Date.parse(`${from}:00Z`) - BASELINE_HOURS * HOUR).toISOString()),
        hourOf(new Date(Date.parse(`${last}:00Z`) - HOUR).toISOString()),
      )
    : new Map<string, number>();
  // Running totals from `from` on: a window's sum is a difference of two.
  const index = new Map<string, number>();
  const totals = [0];
  for (let m = from, i = 0; m <= last; m = minutesAfter(m, 1), i++) {
    index.set(m, i);
    totals.push((totals[i] ?? 0) + (minutes.get(m) ?? 0));
  }
  const upTo = (m: string) => totals[(index.get(m) ?? -1) + 1] ?? 0;
  const sum = (end: string, width: number) => upTo(end) - upTo(minutesAfter(end, -width));
  const baselineBefore = (start: string, width: number) => {
    const startHour = Date.parse(`${hourOf(`${start}:00Z`)}:00:00Z`);
    let n = 0;
    for (let h = 1; h <= BASELINE_HOURS; h++) n += hours.get(hourOf(new Date(startHour - h * HOUR).toISOString())) ?? 0;
    return (n / (BASELINE_HOURS * 60)) * width;
  };
  const holdsNew = (end: string, width: number) => {
    const start = minutesAfter(end, 1 - width);
    return touched.some((m) => m >= start && m <= end);
  };
  const ends: string[] = [];
  for (let m = first; m <= last; m = minutesAfter(m, 1)) ends.push(m);
  return (trigger: AlertTriggerSpec): Crossing | undefined => {
    if (trigger.type !== 'spike' && trigger.type !== 'threshold') return undefined;
    let best: Crossing | undefined;
    for (const end of ends) {
      if (!holdsNew(end, trigger.windowMinutes)) continue;
      const count = sum(end, trigger.windowMinutes);
      if (count < trigger.count || (best && best.count >= count)) continue;
      if (trigger.type === 'threshold') {
        best = { count, windowMinutes: trigger.windowMinutes };
        continue;
      }
      const baseline = baselineBefore(minutesAfter(end, 1 - trigger.windowMinutes), trigger.windowMinutes);
      if (count >= trigger.factor * baseline)
        best = { count, windowMinutes: trigger.windowMinutes, baseline: Math.round(baseline * 100) / 100 };
    }
    return best;
  };
}

/**
 * Fires a rule for an issue: the alert's record, its webhook event and its mails commit with the rule's
 * state for the issue, written only when the cool-down since its last alert has passed. Two checks that
 * see one crossing therefore alert once, and a redelivered check alerts nobody again.
 */
async function fire(job: Check, rule: RuleItem, issue: Issue, crossing: Crossing | undefined, now: number) {
  const tenant = { projectId: job.projectId, env: job.env };
  const firedAt = new Date(now).toISOString();
  const cutoff = new Date(now - rule.cooldownMinutes * MINUTE).toISOString();
  const trigger = (rule.trigger as AlertTriggerSpec).type;
  const alert = {
    id: randomUUID(),
    ruleId: rule.ruleId,
    ruleName: rule.name,
    trigger,
    count: crossing?.count ?? null,
    windowMinutes: crossing?.windowMinutes ?? null,
    baseline: crossing?.baseline ?? null,
    firedAt,
  };
  const shownIssue = { id: issue.issueId, title: issue.title, level: issue.level, scope: issue.scope ?? null };
  const actions = rule.actions as AlertActions;
  const mails = await alertMails(job, actions, rule, shownIssue, alert);
  const committed = await commit({
    items: () => ({
      state: put(
        LogAlertState.put({
          ...tenant,
          ruleId: rule.ruleId,
          issueId: issue.issueId,
          lastFiredAt: firedAt,
          expiresAt: ttlIn(rule.cooldownMinutes * 60 + 86_400, now),
        }).where((a, op) => `${op.notExists(a.lastFiredAt)} OR ${op.lte(a.lastFiredAt, cutoff)}`),
      ),
      alert: put(
        LogAlert.create({
          ...tenant,
          alertId: alert.id,
          firedAt,
          ruleId: rule.ruleId,
          ruleName: rule.name,
          trigger,
          issueId: issue.issueId,
          issue: shownIssue,
          ...(crossing ? { count: crossing.count, windowMinutes: crossing.windowMinutes } : {}),
          ...(crossing?.baseline !== undefined ? { baseline: crossing.baseline } : {}),
          expiresAt: ttlIn(ALERT_TTL_SECONDS, now),
        }),
      ),
      event: actions.webhook
        ? eventItem({ accountId: job.accountId, ...tenant }, 'log_issue.alert', {
            alert,
            issue: {
              ...shownIssue,
              status: issue.status,
              regressed: issue.regressed,
              count: issue.count,
              firstSeenAt: issue.firstSeenAt,
              lastSeenAt: issue.lastSeenAt,
            },
          })
        : undefined,
      mails: mails.writes,
    }),
    // Cooling down: this rule alerted for the issue a moment ago.
    refused: () => 'stop',
    exhausted: () => new Error(`Log alert of rule ${rule.ruleId} kept colliding`),
  });
  if (!committed && mails.ctx && mails.counted) await releaseQuota(mails.ctx, 'emails', mails.counted);
}

const TRIGGER_WORDS = {
  new_issue: 'New issue',
  regression: 'Regression',
  spike: 'Spike',
  threshold: 'Threshold',
} as const;

/**
 * The alert's mails to the rule's members (those still in the account) and addresses. Mail to an address
 * outside the account is the customer's own sending: it counts against the plan's email allowance
 * (members' notices do not), and once that is spent only the members are mailed.
 */
async function alertMails(
  job: Check,
  actions: AlertActions,
  rule: RuleItem,
  issue: { id: string; title: string; level: string; scope: string | null },
  alert: {
    trigger: keyof typeof TRIGGER_WORDS;
    count: number | null;
    windowMinutes: number | null;
    baseline: number | null;
  },
) {
  const memberIds = new Set(actions.email?.memberIds ?? []);
  const members = memberIds.size ? (await listMembers(job.accountId)).filter((m) => memberIds.has(m.id)) : [];
  const memberEmails = new Set(members.map((m) => m.email.toLowerCase()));
  let external = [...new Set(actions.email?.addresses ?? [])].filter((a) => !memberEmails.has(a.toLowerCase()));
  if (!members.length && !external.length) return { writes: [] };
  const ctx = await tenantOfProject(job.projectId, job.env);
  if (!ctx) return { writes: [] };
  try {
    await consumeQuota(ctx, 'emails', external.length);
  } catch (err) {
    if (!(err instanceof Problem)) throw err;
    logger.warn('Log alert mail to addresses skipped: the email allowance is spent', { ruleId: rule.ruleId });
    external = [];
  }
  const counted = external.length;
  const recipients = [...members.map((m) => m.email), ...external];
  const seen =
    alert.count === null
      ? ''
      : ` ${alert.count} events in ${alert.windowMinutes} minutes${alert.baseline === null ? '' : ` (usually ${alert.baseline})`}.`;
  const link = `${config.publicBaseUrl}/console/issues/${issue.id}`;
  const writes = recipients.flatMap(
    (to) =>
      prepareSystemEmail(ctx, {
        to,
        subject: `${TRIGGER_WORDS[alert.trigger]}: ${issue.title}`.slice(0, 200),
        markdown: `Alert rule **${escapeMarkdown(rule.name)}** fired for the ${issue.level} issue ${escapeMarkdown(issue.title.replace(/\s+/g, ' '))}${issue.scope ? ` in ${escapeMarkdown(issue.scope)}` : ''}.${seen}\n\n[Open the issue](${link})`,
        kind: 'log_alert',
        metadata: { issueId: issue.id, ruleId: rule.ruleId },
      }).writes,
  );
  return { writes, ctx, counted };
}

/** Markdown's own characters in user text are shown as written. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);

import { listAlertRules } from '../../areas/logs/alert-rules.js';
import { issueActivity, listLogAlerts, snoozedIssues, snoozeLogIssue } from '../../areas/logs/issue-alerts.js';
import { getLogIssue, listLogIssues, setLogIssueStatus } from '../../areas/logs/issues.js';
import { logRoutes } from '../../areas/logs/routes.js';
import { ISSUE_STATUSES, type IssueStatus, LOG_LEVELS } from '../../areas/logs/values.js';
import { errors } from '../../kernel/errors/common.js';
import { must } from '../../kernel/must.js';
import { lineChart } from './chart.js';
import { csrfField, filtersFrom, selectField, textField, when } from './forms.js';
import { redirect, show, signedIn } from './guard.js';
import { html } from './html.js';
import { listPage } from './list-page.js';

export const issuesList = signedIn('any', async (req) => {
  const f = filtersFrom(logRoutes.listLogIssues.query, req.query);
  const result = await listLogIssues(req.ctx, f);
  return listPage(req, {
    section: 'issues',
    title: 'Log issues',
    filters: [
      selectField('status', 'Status', ISSUE_STATUSES, f.status?.[0]),
      selectField('level', 'Level', LOG_LEVELS, f.level?.[0]),
      textField('search', 'Search', f.search),
    ],
    columns: ['Issue', 'Level', 'Status', 'Events', 'Last seen'],
    rows: result.issues,
    row: (i) =>
      html`<tr><td><a href="/console/issues/${i.id}">${i.title}</a>${i.scope ? html`<br><span class="muted">${i.scope}</span>` : ''}</td><td>${i.level}</td><td><span class="badge">${i.status}</span>${i.regressed ? ' (regressed)' : ''}</td><td>${i.count}</td><td>${when(i.lastSeenAt)}</td></tr>`,
    noun: 'issues',
    result,
  });
});

/** Snooze lengths the issue page offers. */
const SNOOZES = { '1 hour': 1, '8 hours': 8, '24 hours': 24, '7 days': 168 } as const;

export const issueDetail = signedIn('any', async (req) => {
  const issueId = must(req.params.issueId, 'the issueId of the path');
  const issue = await getLogIssue(req.ctx, issueId);
  const activity = await issueActivity(req.ctx, issueId);
  const hours = activity.hourly.map((h) => h.hour);
  const days = activity.daily.map((d) => d.day);
  // A release marks the hour or day it was first seen in.
  const marksIn = (labels: string[], cut: number) =>
    activity.releases.flatMap((r) => {
      const index = labels.findIndex((l) => l.slice(0, cut) === r.firstSeenAt.slice(0, cut));
      return index < 0 ? [] : [{ index, label: r.release }];
    });
  return show(
    req,
    'issues',
    issue.title,
    html`<h1>${issue.title}</h1>
<dl class="card"><dt>Level</dt><dd>${issue.level}</dd><dt>Scope</dt><dd>${issue.scope ?? '—'}</dd><dt>Status</dt><dd><span class="badge">${issue.status}</span>${issue.regressed ? ' (regressed)' : ''}</dd>
<dt>Events</dt><dd>${issue.count}</dd><dt>First seen</dt><dd>${when(issue.firstSeenAt)}</dd><dt>Last seen</dt><dd>${when(issue.lastSeenAt)}</dd></dl>
<form method="post" action="/console/issues/${issue.id}/status" class="card filters">${csrfField(req)}
${selectField('status', 'Change status', ISSUE_STATUSES, issue.status, '')}
<button type="submit">Save</button></form>
<form method="post" action="/console/issues/${issue.id}/snooze" class="card filters">${csrfField(req)}
${selectField('for', issue.snoozedUntil ? 'Snooze again' : 'Snooze alerts', Object.keys(SNOOZES), undefined, '')}
<button type="submit">Snooze</button></form>
${
  issue.snoozedUntil
    ? html`<form method="post" action="/console/issues/${issue.id}/snooze" class="card filters">${csrfField(req)}<input type="hidden" name="for" value="off">
<p>Alerts are snoozed until ${when(issue.snoozedUntil)}.</p><button type="submit">End the snooze</button></form>`
    : ''
}
<h2>Activity</h2>
${lineChart('Events per hour, last 24 hours (UTC)', hours, [{ name: 'events', values: activity.hourly.map((h) => h.count) }], 'hourly', { marks: marksIn(hours, 13), labelHeader: 'Hour', tick: (h) => `${h.slice(11, 13)}:00` })}
${lineChart('Events per day, last 30 days (UTC)', days, [{ name: 'events', values: activity.daily.map((d) => d.count) }], 'daily', { marks: marksIn(days, 10) })}
<h2>Latest events</h2>
${issue.latestEvents.map((e) => html`<div class="msg"><span class="muted">${when(e.timestamp)} · ${e.level}</span>\n${e.message}${e.stack ? html`\n${e.stack}` : ''}</div>`)}`,
  );
});

export const issueSnooze = signedIn('any', async (req) => {
  const issueId = must(req.params.issueId, 'the issueId of the path');
  const choice = req.form.for ?? '';
  const hours = choice === 'off' ? 0 : SNOOZES[choice as keyof typeof SNOOZES];
  if (hours === undefined)
    throw errors.validation([
      { field: 'for', in: 'body', message: `Expected one of ${Object.keys(SNOOZES).join(', ')}, off` },
    ]);
  await snoozeLogIssue(req.ctx, issueId, hours ? new Date(Date.now() + hours * 3_600_000).toISOString() : null);
  return redirect(`/console/issues/${issueId}`);
});

/** Alert rules, the latest alerts and the snoozed issues of the project. */
export const alertsPage = signedIn('any', async (req) => {
  const [{ rules }, latest, snoozed] = await Promise.all([
    listAlertRules(req.ctx),
    listLogAlerts(req.ctx, { page: 1, limit: 50 }),
    snoozedIssues(req.ctx),
  ]);
  const triggerText = (t: (typeof rules)[number]['trigger']) =>
    t.type === 'spike'
      ? `spike: ${t.count}+ events in ${t.windowMinutes} min, ${t.factor}× the usual rate`
      : t.type === 'threshold'
        ? `threshold: ${t.count}+ events in ${t.windowMinutes} min`
        : t.type.replace('_', ' ');
  const actionText = (a: (typeof rules)[number]['actions']) =>
    [
      a.webhook ? 'webhook' : '',
      a.email.memberIds.length ? `${a.email.memberIds.length} member(s)` : '',
      ...a.email.addresses,
    ]
      .filter(Boolean)
      .join(', ') || 'listed only';
  return show(
    req,
    'alerts',
    'Log alerts',
    html`<h1>Log alerts</h1>
<h2>Rules</h2>
${
  rules.length
    ? html`<table class="card"><thead><tr><th>Rule</th><th>Trigger</th><th>Actions</th><th>Cool-down</th><th>State</th></tr></thead><tbody>
${rules.map((r) => html`<tr><td>${r.name}</td><td>${triggerText(r.trigger)}</td><td>${actionText(r.actions)}</td><td>${r.cooldownMinutes} min</td><td>${r.enabled ? 'on' : 'off'}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">No rules yet: create them with POST /log-alert-rules.</p>`
}
<h2>Latest alerts</h2>
${
  latest.alerts.length
    ? html`<table class="card"><thead><tr><th>Fired</th><th>Rule</th><th>Issue</th><th>Saw</th></tr></thead><tbody>
${latest.alerts.map((a) => html`<tr><td>${when(a.firedAt)}</td><td>${a.ruleName}</td><td><a href="/console/issues/${a.issue.id}">${a.issue.title}</a></td><td>${a.count === null ? a.trigger.replace('_', ' ') : `${a.count} in ${a.windowMinutes} min${a.baseline === null ? '' : ` (usually ${a.baseline})`}`}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">No alerts in the last 90 days.</p>`
}
<h2>Snoozed issues</h2>
${
  snoozed.length
    ? html`<table class="card"><thead><tr><th>Issue</th><th>Until</th></tr></thead><tbody>
${snoozed.map((i) => html`<tr><td><a href="/console/issues/${i.id}">${i.title}</a></td><td>${when(i.snoozedUntil ?? '')}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">No issue is snoozed.</p>`
}`,
  );
});

export const issueStatus = signedIn('any', async (req) => {
  const status = req.form.status as IssueStatus;
  if (!ISSUE_STATUSES.includes(status))
    throw errors.validation([{ field: 'status', in: 'body', message: `Expected one of ${ISSUE_STATUSES.join(', ')}` }]);
  await setLogIssueStatus(req.ctx, must(req.params.issueId, 'the issueId of the path'), status);
  return redirect(`/console/issues/${req.params.issueId}`);
});

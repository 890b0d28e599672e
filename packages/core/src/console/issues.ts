import { getLogIssue, listLogIssues, setLogIssueStatus } from '../logs/issues.js';
import { ISSUE_STATUSES, LOG_LEVELS, type IssueStatus } from '../logs/values.js';
import { logRoutes } from '../logs/routes.js';
import { errors } from '../errors/common.js';
import { redirect, show, signedIn } from './guard.js';
import { csrfField, filtersFrom, pager, selectField, textField, when } from './forms.js';
import { html } from './html.js';

export const issuesList = signedIn('any', async (req) => {
  const f = filtersFrom(logRoutes.listLogIssues.query, req.query);
  const result = await listLogIssues(req.ctx, f);
  return show(
    req,
    'issues',
    'Log issues',
    html`<h1>Log issues</h1>
<form method="get" class="filters" role="search" aria-label="Filter log issues">
${selectField('status', 'Status', ISSUE_STATUSES, f.status?.[0])}
${selectField('level', 'Level', LOG_LEVELS, f.level?.[0])}
${textField('search', 'Search', f.search)}
<button type="submit">Filter</button>
</form>
${
  result.issues.length === 0
    ? html`<p>No issues match.</p>`
    : html`<div class="scroll"><table><thead><tr><th scope="col">Issue</th><th scope="col">Level</th><th scope="col">Status</th><th scope="col">Events</th><th scope="col">Last seen</th></tr></thead>
<tbody>${result.issues.map(
        (i) =>
          html`<tr><td><a href="/console/issues/${i.id}">${i.title}</a>${i.scope ? html`<br><span class="muted">${i.scope}</span>` : ''}</td><td>${i.level}</td><td><span class="badge">${i.status}</span>${i.regressed ? ' (regressed)' : ''}</td><td>${i.count}</td><td>${when(i.lastSeenAt)}</td></tr>`,
      )}</tbody></table></div>`
}
${pager('/console/issues', req.query, result.page, result.limit, result.total)}`,
  );
});

export const issueDetail = signedIn('any', async (req) => {
  const issue = await getLogIssue(req.ctx, req.params.issueId!);
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
<h2>Latest events</h2>
${issue.latestEvents.map((e) => html`<div class="msg"><span class="muted">${when(e.timestamp)} · ${e.level}</span>\n${e.message}${e.stack ? html`\n${e.stack}` : ''}</div>`)}`,
  );
});

export const issueStatus = signedIn('any', async (req) => {
  const status = req.form.status as IssueStatus;
  if (!ISSUE_STATUSES.includes(status)) throw errors.validation([{ field: 'status', in: 'body', message: `Expected one of ${ISSUE_STATUSES.join(', ')}` }]);
  await setLogIssueStatus(req.ctx, req.params.issueId!, status);
  return redirect(`/console/issues/${req.params.issueId}`);
});

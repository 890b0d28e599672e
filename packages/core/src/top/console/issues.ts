import { getLogIssue, listLogIssues, setLogIssueStatus } from '../../areas/logs/issues.js';
import { logRoutes } from '../../areas/logs/routes.js';
import { ISSUE_STATUSES, type IssueStatus, LOG_LEVELS } from '../../areas/logs/values.js';
import { errors } from '../../kernel/errors/common.js';
import { must } from '../../kernel/must.js';
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

export const issueDetail = signedIn('any', async (req) => {
  const issue = await getLogIssue(req.ctx, must(req.params.issueId, 'the issueId of the path'));
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
  if (!ISSUE_STATUSES.includes(status))
    throw errors.validation([{ field: 'status', in: 'body', message: `Expected one of ${ISSUE_STATUSES.join(', ')}` }]);
  await setLogIssueStatus(req.ctx, must(req.params.issueId, 'the issueId of the path'), status);
  return redirect(`/console/issues/${req.params.issueId}`);
});

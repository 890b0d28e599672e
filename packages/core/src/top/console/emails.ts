import { DAY_METRICS, dayStats } from '../../areas/emails/day-stats.js';
import { getEmail, listEmails } from '../../areas/emails/read.js';
import { emailRoutes } from '../../areas/emails/routes.js';
import { EMAIL_STATUSES } from '../../areas/emails/schemas.js';
import { readSentCopy } from '../../areas/emails/sent-copy.js';
import { must } from '../../kernel/must.js';
import { lineChart } from './chart.js';
import { filtersFrom, selectField, textField, when } from './forms.js';
import { type ConsoleRequest, show, signedIn } from './guard.js';
import { html } from './html.js';
import { listPage } from './list-page.js';

/** Per day over the last 30 days: what was sent and what SES reported of it. */
async function dayChart(req: ConsoleRequest) {
  const days = await dayStats(req.ctx, 30);
  return lineChart(
    'Emails per day, last 30 days (UTC)',
    days.map((d) => d.day),
    DAY_METRICS.map((metric) => ({ name: metric, values: days.map((d) => d[metric]) })),
  );
}

export const emailsList = signedIn('admin', async (req) => {
  const f = filtersFrom(emailRoutes.listEmails.query, req.query);
  const [result, chart] = await Promise.all([listEmails(req.ctx, f), dayChart(req)]);
  return listPage(req, {
    section: 'emails',
    title: 'Emails',
    heading: `Emails${req.ctx.env === 'sandbox' ? ' (sandbox captures)' : ''}`,
    before: chart,
    filters: [
      selectField('status', 'Status', EMAIL_STATUSES, f.status),
      textField('to', 'Recipient', f.to, 'email'),
      textField('templateKey', 'Template', f.templateKey),
      textField('dateFrom', 'From date', f.dateFrom?.slice(0, 10), 'date'),
      textField('dateTo', 'To date', f.dateTo?.slice(0, 10), 'date'),
    ],
    columns: ['Created', 'To', 'Subject', 'Template', 'Status'],
    rows: result.emails,
    row: (e) =>
      html`<tr><td>${when(e.createdAt)}</td><td>${e.to}</td><td><a href="/console/emails/${e.id}">${e.subject ?? e.captured?.subject ?? '(no subject yet)'}</a></td><td>${e.templateKey ?? '—'}</td><td><span class="badge">${e.status}</span></td></tr>`,
    noun: 'emails',
    result,
  });
});

/**
 * One message: its timeline and, for a sandbox capture or sent mail, the rendered HTML in a sandboxed frame (no
 * scripts, an opaque origin, and the console's CSP: no remote images or fonts) and the text.
 */
export const emailDetail = signedIn('admin', async (req) => {
  const e = await getEmail(req.ctx, must(req.params.emailId, 'the emailId of the path'));
  const rendered =
    e.captured ??
    (e.sentAt ? await readSentCopy({ projectId: req.ctx.projectId, env: req.ctx.env, emailId: e.id }) : undefined);
  // Its events in order: each step once, at the time it first happened (opens and clicks with their counts).
  const steps: [string, string | null][] = [
    ['Created', e.createdAt],
    ['Scheduled for', e.scheduledAt],
    ['Sent', e.sentAt],
    ['Delivered', e.deliveredAt],
    [`Opened${e.opens > 1 ? ` (${e.opens} times)` : ''}`, e.openedAt],
    [
      `Clicked${e.clicks > 1 ? ` (${e.clicks} times)` : ''}${e.lastClickedLink ? `, last ${e.lastClickedLink}` : ''}`,
      e.clickedAt,
    ],
    ...(['bounced', 'complained', 'failed', 'canceled', 'blocked', 'captured'].includes(e.status)
      ? ([[`Now ${e.status}`, e.updatedAt]] as [string, string][])
      : []),
  ];
  steps.sort((a, b) => (a[1] ?? '').localeCompare(b[1] ?? ''));
  return show(
    req,
    'emails',
    e.subject ?? 'Email',
    html`<h1>${e.captured?.subject ?? e.subject ?? '(no subject)'}</h1>
<dl class="card">
<dt>Status</dt><dd><span class="badge">${e.status}</span>${e.blocked ? html` blocked (${e.blockReason})` : ''}${e.error ? html` <span class="error">${e.error}</span>` : ''}</dd>
<dt>From</dt><dd>${e.from}</dd><dt>To</dt><dd>${e.to}</dd>
${e.cc.length ? html`<dt>Cc</dt><dd>${e.cc.join(', ')}</dd>` : ''}
<dt>Template</dt><dd>${e.templateKey ? `${e.templateKey} v${e.templateVersion ?? '?'}` : 'custom'}</dd>
${
  Object.keys(e.metadata).length
    ? html`<dt>Metadata</dt><dd>${Object.entries(e.metadata)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}</dd>`
    : ''
}
</dl>
<h2>Events</h2>
<ol>${steps.filter(([, at]) => at).map(([label, at]) => html`<li>${label}: ${when(at)}</li>`)}</ol>
${
  rendered
    ? html`<h2>Rendered HTML</h2>
<iframe title="Rendered HTML of the email" sandbox="" srcdoc="${rendered.html}"></iframe>
<h2>Text</h2><pre>${rendered.text}</pre>`
    : html`<p class="muted">The rendered message is shown once it has been sent or captured.</p>`
}`,
  );
});

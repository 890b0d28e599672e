import {
  CATEGORIES,
  type Category,
  PRIORITIES,
  type Priority,
  STATUSES,
  type Status,
} from '../../areas/tickets/entities.js';
import { listTickets } from '../../areas/tickets/list.js';
import { mergeByNumber, unmergeTicket } from '../../areas/tickets/merge.js';
import { postMessage } from '../../areas/tickets/messages.js';
import { ticketRoutes } from '../../areas/tickets/routes.js';
import { getTicketDetail } from '../../areas/tickets/thread.js';
import { type UpdateTicketInput, updateTicket } from '../../areas/tickets/update.js';
import { UNMERGE_DAYS } from '../../areas/tickets/values.js';
import { listMembers } from '../../identity/accounts.js';
import { errors } from '../../kernel/errors/common.js';
import { must } from '../../kernel/must.js';
import { bodyFrom, csrfField, filtersFrom, pager, selectField, textField, when } from './forms.js';
import { type ConsoleRequest, redirect, show, signedIn } from './guard.js';
import { html } from './html.js';

const UNASSIGNED = 'unassigned';

export const ticketsList = signedIn('any', async (req) => {
  const f = filtersFrom(ticketRoutes.listTickets.query, req.query);
  const [result, members] = await Promise.all([listTickets(req.ctx, f), listMembers(req.ctx.accountId)]);
  const memberName = (id: string | null) => (id ? (members.find((m) => m.id === id)?.name ?? id) : '—');
  const chosen = f.assignee?.[0];
  return show(
    req,
    'tickets',
    'Tickets',
    html`<h1>Tickets</h1>
<form method="get" class="filters" role="search" aria-label="Filter tickets">
${selectField('status', 'Status', STATUSES, f.status)}
${selectField('priority', 'Priority', PRIORITIES, f.priority)}
${selectField('category', 'Category', CATEGORIES, f.category)}
<div><label for="f-assignee">Assignee</label><select id="f-assignee" name="assignee"><option value="">anyone</option>
<option value="${UNASSIGNED}"${chosen === UNASSIGNED ? html` selected` : ''}>unassigned</option>
${members.map((m) => html`<option value="${m.id}"${chosen === m.id ? html` selected` : ''}>${m.name}</option>`)}</select></div>
${textField('search', 'Search', f.search, 'search')}
<div><label><input type="checkbox" name="awaitingReply" value="true"${f.awaitingReply ? html` checked` : ''}> Awaiting reply</label></div>
<button type="submit">Filter</button>
</form>
${
  result.tickets.length === 0
    ? html`<p>No tickets match.</p>`
    : html`<div class="scroll"><table><thead><tr><th scope="col">#</th><th scope="col">Subject</th><th scope="col">Customer</th><th scope="col">Status</th><th scope="col">Priority</th><th scope="col">Assignee</th><th scope="col">Last activity</th></tr></thead>
<tbody>${result.tickets.map(
        (
          t,
        ) => html`<tr><td>${t.number}</td><td><a href="/console/tickets/${t.id}">${t.subject}</a></td><td>${t.customerName} <span class="muted">${t.customerEmail}</span></td>
<td><span class="badge">${t.status}</span></td><td>${t.priority}</td><td>${memberName(t.assignedTo)}</td><td>${when(t.updatedAt)}</td></tr>`,
      )}</tbody></table></div>`
}
${pager('/console/tickets', req.query, result.page, result.limit, result.total)}`,
  );
});

export const ticketDetail = signedIn('any', async (req) => {
  const [t, members] = await Promise.all([
    // With each mail's original: the console shows it collapsed under the extracted reply.
    getTicketDetail(req.ctx, must(req.params.ticketId, 'the ticketId of the path'), 'original'),
    listMembers(req.ctx.accountId),
  ]);
  return show(
    req,
    'tickets',
    `#${t.number} ${t.subject}`,
    html`<h1>#${t.number} ${t.subject}</h1>
<p>${t.customer.name} &lt;${t.customer.email}&gt; · opened ${when(t.createdAt)}${t.tags.length ? html` · tags: ${t.tags.join(', ')}` : ''}</p>
${slaPanel(t)}
${mergePanel(req, t)}
<form method="post" action="/console/tickets/${t.id}/update" class="card filters" aria-label="Ticket properties">${csrfField(req)}
${selectField('status', 'Status', STATUSES, t.status, '')}
${selectField('priority', 'Priority', PRIORITIES, t.priority, '')}
<div><label for="f-assignedTo">Assignee</label><select id="f-assignedTo" name="assignedTo"><option value="">unassigned</option>
${members.map((m) => html`<option value="${m.id}"${t.assignedTo === m.id ? html` selected` : ''}>${m.name}</option>`)}</select></div>
<button type="submit">Save</button>
</form>
<h2>Thread</h2>
${t.messages.map(
  (
    m,
  ) => html`<article class="msg ${m.senderType}${m.visibility === 'internal' ? ' internal' : ''}" aria-label="${m.visibility === 'internal' ? 'Internal note' : m.senderType === 'staff' ? 'Reply' : 'Customer message'}"><span class="muted">${m.visibility === 'internal' ? 'Internal note' : m.senderType === 'staff' ? 'Support' : t.customer.name} · ${when(m.createdAt)}${m.ticketId === t.id ? '' : html` · <a href="/console/tickets/${m.ticketId}">from a merged ticket</a>`}</span>
${m.body}${m.attachments.length ? html`\n${m.attachments.map((a) => html`<a href="${a.url}">${a.fileName}</a> `)}` : ''}${m.original ? html`<details><summary>Whole mail (quoted history and signature)</summary><pre>${m.original.text}</pre></details>` : ''}</article>`,
)}
<form method="post" action="/console/tickets/${t.id}/messages" class="card">${csrfField(req)}
<label for="reply-body">Reply or note</label>
<textarea id="reply-body" name="body" required maxlength="10000"></textarea>
<fieldset><legend>Visibility</legend>
<label style="font-weight:400"><input type="radio" name="visibility" value="public" checked> Reply to the customer (emailed)</label>
<label style="font-weight:400"><input type="radio" name="visibility" value="internal"> Internal note (staff only)</label>
</fieldset>
<button type="submit">Send</button>
</form>`,
  );
});

const TARGET_LABELS = { firstReply: 'First reply', nextReply: 'Next reply', resolution: 'Resolution' } as const;

/** The ticket's SLA clock: each target's state, due time and minutes used. */
function slaPanel(t: Awaited<ReturnType<typeof getTicketDetail>>) {
  if (!t.sla) return '';
  const rows = (Object.keys(TARGET_LABELS) as (keyof typeof TARGET_LABELS)[]).flatMap((name) => {
    const target = t.sla?.targets[name];
    return target
      ? [
          html`<tr><th scope="row">${TARGET_LABELS[name]}</th><td><span class="badge">${target.atRisk ? 'at risk' : target.status}</span></td><td>${target.dueAt ? when(target.dueAt) : '—'}</td><td>${target.usedMinutes} of ${target.minutes} ${t.sla?.time} minutes</td></tr>`,
        ]
      : [];
  });
  return html`<section class="card" aria-label="SLA"><h2>SLA</h2><table><thead><tr><th scope="col">Target</th><th scope="col">Status</th><th scope="col">Due</th><th scope="col">Used</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** A merged ticket says where it went (and offers the undo while it lasts); any other offers a merge. */
function mergePanel(req: ConsoleRequest, t: Awaited<ReturnType<typeof getTicketDetail>>) {
  if (t.mergedInto) {
    const undoable = t.mergedAt && Date.now() - Date.parse(t.mergedAt) <= UNMERGE_DAYS * 86_400_000;
    return html`<div class="card" role="status"><p>Merged into <a href="/console/tickets/${t.mergedInto}">another ticket</a> ${when(t.mergedAt ?? '')}; read-only.</p>
${undoable ? html`<form method="post" action="/console/tickets/${t.id}/unmerge">${csrfField(req)}<button type="submit">Unmerge</button></form>` : ''}</div>`;
  }
  return html`${t.mergedFrom.length ? html`<p class="muted">Shows the threads of ${t.mergedFrom.length} merged ticket${t.mergedFrom.length === 1 ? '' : 's'}${t.otherCustomers.length ? html`; replies are copied to ${t.otherCustomers.map((c) => c.email).join(', ')}` : ''}.</p>` : ''}
<form method="post" action="/console/tickets/${t.id}/merge" class="card filters" aria-label="Merge ticket">${csrfField(req)}
<div><label for="f-into">Merge into ticket #</label><input id="f-into" name="into" type="number" min="1" required></div>
<button type="submit">Merge</button>
</form>`;
}

export const ticketMerge = signedIn('any', async (req) => {
  const ticketId = must(req.params.ticketId, 'the ticketId of the path');
  const merged = await mergeByNumber(req.ctx, ticketId, Number(req.form.into));
  return redirect(`/console/tickets/${merged.id}`);
});

export const ticketUnmerge = signedIn('any', async (req) => {
  await unmergeTicket(req.ctx, must(req.params.ticketId, 'the ticketId of the path'));
  return redirect(`/console/tickets/${req.params.ticketId}`);
});

export const ticketReply = signedIn('any', async (req) => {
  // The form always says which it is: a note must never go to the customer by default.
  if (req.form.visibility === undefined)
    throw errors.validation([{ field: 'visibility', in: 'body', message: 'Choose a reply or an internal note' }]);
  const input = bodyFrom(ticketRoutes.postTicketMessage.body, {
    body: (req.form.body ?? '').trim(),
    visibility: req.form.visibility,
  });
  await postMessage(req.ctx, must(req.params.ticketId, 'the ticketId of the path'), input);
  return redirect(`/console/tickets/${req.params.ticketId}`);
});

export const ticketUpdate = signedIn('any', async (req) => {
  const { status, priority, category, assignedTo } = req.form;
  const bad = (field: string, allowed: readonly string[]) =>
    errors.validation([{ field, in: 'body', message: `Expected one of ${allowed.join(', ')}` }]);
  if (status && !STATUSES.includes(status as Status)) throw bad('status', STATUSES);
  if (priority && !PRIORITIES.includes(priority as Priority)) throw bad('priority', PRIORITIES);
  if (category && !CATEGORIES.includes(category as Category)) throw bad('category', CATEGORIES);
  const input: UpdateTicketInput = {
    ...(status ? { status: status as Status } : {}),
    ...(priority ? { priority: priority as Priority } : {}),
    ...(category ? { category: category as Category } : {}),
    ...(assignedTo !== undefined ? { assignedTo: assignedTo || null } : {}),
  };
  await updateTicket(req.ctx, must(req.params.ticketId, 'the ticketId of the path'), input);
  return redirect(`/console/tickets/${req.params.ticketId}`);
});

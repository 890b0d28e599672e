import { EVENT_NAMES, type EventName } from '../../areas/webhooks/catalog.js';
import { listDeliveries } from '../../areas/webhooks/deliveries.js';
import {
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  sendTestDelivery,
  toApiWebhook,
} from '../../areas/webhooks/endpoints.js';
import { recoverDeliveries } from '../../areas/webhooks/recover.js';
import { webhookRoutes } from '../../areas/webhooks/routes.js';
import { errors } from '../../kernel/errors/common.js';
import { must } from '../../kernel/must.js';
import { csrfField, filtersFrom, pager, when } from './forms.js';
import { type ConsoleRequest, redirect, show, signedIn } from './guard.js';
import { type Html, html } from './html.js';

export const webhooksList = signedIn('admin', async (req) => {
  const endpoints = await listWebhooks(req.ctx);
  return show(
    req,
    'webhooks',
    'Webhooks',
    html`<h1>Webhook endpoints</h1>
${
  endpoints.length === 0
    ? html`<p>No endpoints in this project and environment. Register one with <code>POST /api/v1/webhooks</code>.</p>`
    : html`<div class="scroll"><table><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Format</th><th scope="col">State</th><th scope="col">Created</th></tr></thead>
<tbody>${endpoints.map(
        (
          w,
        ) => html`<tr><td><a href="/console/webhooks/${w.id}">${w.url}</a>${w.description ? html`<br><span class="muted">${w.description}</span>` : ''}</td>
<td>${w.events.length === EVENT_NAMES.length ? 'all events' : w.events.join(', ')}</td><td>${w.format}</td><td>${w.enabled ? 'enabled' : 'disabled'}</td><td>${when(w.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
}`,
  );
});

/** Enabled, failing since when, or disabled and why. */
const stateOf = (e: { enabled: boolean; failingSince: string | null; disabledReason: string | null }) =>
  !e.enabled
    ? html`disabled${e.disabledReason ? html` (${e.disabledReason})` : ''}`
    : e.failingSince
      ? html`<span class="error">failing since ${when(e.failingSince)}</span>`
      : 'enabled';

const endpointPage = async (req: ConsoleRequest, notice?: Html) => {
  const webhookId = must(req.params.webhookId, 'the webhookId of the path');
  const endpoint = toApiWebhook(await getWebhook(req.ctx, webhookId));
  const q = filtersFrom(webhookRoutes.listWebhookDeliveries.query, req.query);
  const log = await listDeliveries(req.ctx, webhookId, q.page, q.limit);
  return show(
    req,
    'webhooks',
    endpoint.url,
    html`<h1>Webhook endpoint</h1>
${notice ?? ''}
<dl class="card"><dt>URL</dt><dd>${endpoint.url}</dd><dt>Events</dt><dd>${endpoint.events.join(', ')}</dd><dt>Format</dt><dd>${endpoint.format}</dd><dt>State</dt><dd>${stateOf(endpoint)}</dd>
<dt>Signing secrets</dt><dd>${endpoint.secretFingerprint} (current)${endpoint.previousSecrets.map((p) => html`, ${p.fingerprint} (until ${when(p.validUntil)})`)}</dd></dl>
<div class="row">
<form method="post" action="/console/webhooks/${webhookId}/test" class="card">${csrfField(req)}
<label for="test-event">Send a test event</label>
<select id="test-event" name="event">${endpoint.events.map((e) => html`<option value="${e}">${e}</option>`)}</select>
<button type="submit">Send test</button></form>
<form method="post" action="/console/webhooks/${webhookId}/rotate" class="card">${csrfField(req)}
<p>Rotating the signing secret: the current one keeps signing beside the new one for 24 hours.</p>
<button type="submit" class="danger">Rotate secret</button></form>
<form method="post" action="/console/webhooks/${webhookId}/recover" class="card">${csrfField(req)}
<label for="recover-since">Recover failed deliveries since</label>
<input id="recover-since" name="since" type="datetime-local" required>
<button type="submit">Recover</button></form>
</div>
<h2>Delivery log</h2>
${
  log.deliveries.length === 0
    ? html`<p>No deliveries yet.</p>`
    : html`<div class="scroll"><table><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Status code</th><th scope="col">Duration</th><th scope="col">Error</th><th scope="col">Next retry</th><th scope="col">Signed with</th></tr></thead>
<tbody>${log.deliveries.map(
        (d) =>
          html`<tr class="delivery"><td>${when(d.createdAt)}</td><td>${d.event}</td><td>${d.attempt}</td><td>${d.statusCode ?? '—'}</td><td>${d.durationMs} ms</td><td>${d.error ?? ''}</td><td>${when(d.nextRetryAt)}</td><td>${d.signedWith.join(', ')}</td></tr>`,
      )}</tbody></table></div>`
}
${pager(`/console/webhooks/${webhookId}`, req.query, log.page, log.limit, log.total)}`,
  );
};

export const webhookDetail = signedIn('admin', (req) => endpointPage(req));

export const webhookTest = signedIn('admin', async (req) => {
  const event = req.form.event as EventName | undefined;
  if (event !== undefined && !EVENT_NAMES.includes(event))
    throw errors.validation([{ field: 'event', in: 'body', message: 'Unknown event' }]);
  await sendTestDelivery(req.ctx, must(req.params.webhookId, 'the webhookId of the path'), event);
  return redirect(`/console/webhooks/${req.params.webhookId}`);
});

/** The new secret is in this one answer only (it is stored sealed). */
export const webhookRotate = signedIn('admin', async (req) => {
  const { secret } = await rotateWebhookSecret(req.ctx, must(req.params.webhookId, 'the webhookId of the path'));
  return endpointPage(
    req,
    html`<div class="card" role="status"><h2>Secret rotated</h2><p>Copy the new signing secret now: it is shown this once.</p><p class="secret" id="new-secret">${secret}</p></div>`,
  );
});

/** Every dead-lettered delivery since the time given (the browser's local time, read as UTC) goes out again. */
export const webhookRecover = signedIn('admin', async (req) => {
  const since = String(req.form.since ?? '');
  const at = Date.parse(since.length === 16 ? `${since}:00Z` : since);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(since) || Number.isNaN(at))
    throw errors.validation([{ field: 'since', in: 'body', message: 'A date and time' }]);
  const { queued } = await recoverDeliveries(req.ctx, must(req.params.webhookId, 'the webhookId of the path'), {
    since: new Date(at).toISOString(),
  });
  return endpointPage(
    req,
    html`<div class="card" role="status"><p>${queued} failed ${queued === 1 ? 'delivery' : 'deliveries'} queued again.</p></div>`,
  );
});

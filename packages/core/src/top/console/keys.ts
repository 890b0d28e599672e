import { isValidCidr } from '../../identity/ip-allowlist.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../identity/keys.js';
import { SCOPES } from '../../kernel/api/route.js';
import { errors } from '../../kernel/errors/common.js';
import { must } from '../../kernel/must.js';
import { ENVIRONMENTS, type Environment } from '../../kernel/tenant.js';
import { csrfField, when } from './forms.js';
import { type ConsoleRequest, redirect, show, signedIn } from './guard.js';
import { type Html, html } from './html.js';

const keyTable = async (req: ConsoleRequest) => {
  const keys = await listApiKeys(req.ctx.accountId);
  const projectName = (id: string) => req.chrome.projects.find((p) => p.id === id)?.name ?? id;
  if (keys.length === 0) return html`<p>No API keys yet.</p>`;
  return html`<div class="scroll"><table>
<caption class="muted" style="text-align:left">Last used is recorded when a Lambda first sees the key in a while: accurate to about 30 seconds.</caption>
<thead><tr><th scope="col">Prefix</th><th scope="col">Environment</th><th scope="col">Projects</th><th scope="col">Scopes</th><th scope="col">IP allowlist</th><th scope="col">Rate limit</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
<tbody>${keys.map(
    (
      k,
    ) => html`<tr data-key-id="${k.keyId}"><td><code>${k.hint}…</code></td><td>${k.env}</td><td>${k.projectIds?.length ? k.projectIds.map(projectName).join(', ') : 'all'}</td>
<td>${k.scopes.length ? k.scopes.join(', ') : 'full access'}</td><td>${k.allowIps.length ? k.allowIps.join(', ') : 'any'}</td><td>${k.rateLimit}/min</td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td>
<td>${
      k.revokedAt
        ? html`revoked ${when(k.revokedAt)}`
        : html`<form method="post" action="/console/keys/${k.keyId}/revoke">${csrfField(req)}<button type="submit" class="danger" aria-label="Revoke key ${k.hint}">Revoke</button></form>`
    }</td></tr>`,
  )}</tbody></table></div>`;
};

const createForm = (req: ConsoleRequest) => html`<form method="post" action="/console/keys" class="card">
<h2>Create a key</h2>
${csrfField(req)}
<div class="row">
<div><label for="key-env">Environment</label><select id="key-env" name="env">${ENVIRONMENTS.map((e) => html`<option value="${e}">${e}</option>`)}</select></div>
<div><label for="key-rate">Rate limit (requests per minute)</label><input id="key-rate" name="rateLimit" type="number" min="1" max="100000" value="100"></div>
<div><label for="key-ips">IP allowlist (addresses or CIDRs, comma separated; empty: any)</label><input id="key-ips" name="allowIps" size="30"></div>
</div>
<fieldset><legend>Projects (none ticked: every project)</legend>${req.chrome.projects.map(
  (p) =>
    html`<label style="font-weight:400"><input type="checkbox" name="project:${p.id}" value="on"> ${p.name}</label>`,
)}</fieldset>
<fieldset><legend>Scopes (none ticked: full access)</legend>${SCOPES.map(
  (s) =>
    html`<label style="font-weight:400;display:inline-block;margin-right:1rem"><input type="checkbox" name="scope:${s}" value="on"> ${s}</label>`,
)}</fieldset>
<button type="submit">Create key</button>
</form>`;

const keysPage = async (req: ConsoleRequest, notice?: Html) =>
  show(req, 'keys', 'API keys', html`<h1>API keys</h1>${notice ?? ''}${await keyTable(req)}${createForm(req)}`);

export const keysList = signedIn('admin', (req) => keysPage(req));

/** The secret is in this one answer and nowhere else: only its hash is stored. */
export const keysCreate = signedIn('admin', async (req) => {
  const { form } = req;
  const env = form.env as Environment;
  if (!ENVIRONMENTS.includes(env))
    throw errors.validation([{ field: 'env', in: 'body', message: 'Expected live or sandbox' }]);
  const allowIps = (form.allowIps ?? '').split(/[\s,]+/).filter(Boolean);
  const badIp = allowIps.find((ip) => !isValidCidr(ip));
  if (badIp)
    throw errors.validation([
      { field: 'allowIps', in: 'body', message: `"${badIp}" is not an IPv4/IPv6 address or CIDR` },
    ]);
  const rateLimit = Number(form.rateLimit || 100);
  if (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > 100_000) {
    throw errors.validation([{ field: 'rateLimit', in: 'body', message: 'Expected a whole number from 1 to 100000' }]);
  }
  // A ticked box the form never offered (another account's project, a made-up scope) is refused, not
  // dropped: dropping it would leave the list empty, and an empty list means every project or full access.
  const ticked = (prefix: string) =>
    Object.keys(form)
      .filter((name) => name.startsWith(prefix))
      .map((name) => name.slice(prefix.length));
  const projectIds = ticked('project:');
  const unknownProject = projectIds.find((id) => !req.chrome.projects.some((p) => p.id === id));
  if (unknownProject !== undefined)
    throw errors.validation([
      { field: `project:${unknownProject}`, in: 'body', message: 'Not a project of this account' },
    ]);
  const scopes = ticked('scope:');
  const unknownScope = scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknownScope !== undefined)
    throw errors.validation([
      { field: `scope:${unknownScope}`, in: 'body', message: `Expected one of ${SCOPES.join(', ')}` },
    ]);
  const created = await createApiKey({
    accountId: req.ctx.accountId,
    env,
    projectIds: projectIds.length ? projectIds : undefined,
    scopes: scopes as (typeof SCOPES)[number][],
    allowIps,
    rateLimit,
  });
  return keysPage(
    req,
    html`<div class="card" role="status"><h2>Key created</h2><p>Copy it now: it is shown this once and cannot be shown again.</p><p class="secret" id="new-secret">${created.key}</p></div>`,
  );
});

export const keysRevoke = signedIn('admin', async (req) => {
  if (!(await revokeApiKey(must(req.params.keyId, 'the keyId of the path'), req.ctx.accountId)))
    throw errors.notFound('API key');
  return redirect('/console/keys');
});

import { portalViewOf } from '../../areas/portal/present.js';
import { ENVIRONMENTS, type Environment } from '../../kernel/tenant.js';
import { errorPage, redirect, show, signedIn } from './guard.js';
import { html } from './html.js';
import { navFor } from './layout.js';
import { chooseTenant } from './session.js';

/** The project's help center: its address and whether it is on (it shows the live environment's published articles). */
const helpCenter = (portal: ReturnType<typeof portalViewOf>) =>
  portal.url
    ? html`<p>Help center: <a href="${portal.url}">${portal.url}</a> (handle <code>${portal.handle ?? ''}</code>, ${portal.enabled ? 'on' : 'off'}; live published articles).</p>`
    : html`<p>Help center: no handle yet. Give the project one with <code>PATCH /projects/{projectId}</code> and <code>{"portal": {"handle", "enabled": true}}</code>.</p>`;

export const homePage = signedIn('any', async (req) =>
  show(
    req,
    'home',
    'Overview',
    html`<h1>${req.chrome.accountName}</h1>
<p>Signed in as ${req.member.name} (${req.member.email}), ${req.member.role}. Project <strong>${req.ctx.project.name}</strong>, ${req.ctx.env} data.</p>
${helpCenter(portalViewOf(req.ctx.project.portal))}
<ul>${navFor(req.member.role).map((n) => html`<li><a href="${n.href}">${n.label}</a></li>`)}</ul>`,
  ),
);

/** The project and live/sandbox switch: kept in the session, so every page and link stays short. */
export const switchTenant = signedIn('any', async (req) => {
  const project = req.chrome.projects.find((p) => p.id === req.form.projectId);
  const env = req.form.env as Environment;
  if (!project || !ENVIRONMENTS.includes(env))
    return errorPage(422, 'Choose one of your projects and live or sandbox.', req.chrome);
  await chooseTenant(req.session, project.id, env);
  const section = navFor(req.member.role).find((n) => n.section === req.form.section);
  return redirect(section?.href ?? '/console');
});
